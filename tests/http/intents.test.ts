import crypto from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, appQuery } from "./support";

const tokens = inject("appTokens");
const base = () => inject("appBaseUrl");
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

const gearBody = (overrides: Record<string, unknown> = {}) => ({
  account: "76561198000000001",
  platform: "730",
  item: "ak47-redline",
  email: "lifecycle@example.com",
  ...overrides,
});
const giftBody = (overrides: Record<string, unknown> = {}) => ({
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "lifecycle@example.com",
  fee: "excluded",
  ...overrides,
});

async function createGear(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await api("/api/v1/gear", { body: gearBody(overrides) });
  expect(res.status).toBe(201);
  return res.body.intentId;
}

/** The payment page's form, as a browser without JavaScript sends it; redirects are not followed. */
async function submit(intentId: string, form: string, options: { path?: string; type?: string } = {}) {
  const res = await fetch(`${base()}${options.path ?? `/pay/${intentId}/submit`}`, {
    method: "POST",
    headers: { "content-type": options.type ?? "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

async function page(path: string, language = "ru") {
  const res = await fetch(`${base()}${path}`, { headers: { "accept-language": language } });
  return { status: res.status, html: await res.text() };
}

const status = async (intentId: string) => (await api(`/api/v1/intents/${intentId}`)).body.status;

async function available(item: string): Promise<number> {
  const res = await api(`/api/v1/gear/items?platform=730&limit=100`);
  return res.body.items.find((i: { item: string }) => i.item === item).available;
}

describe("GET /intents/{intentId}", () => {
  it("shows the owner the intent: status, amounts, what is bought, times and links", async () => {
    const id = await createGear({
      item: "sticker-capsule",
      successUrl: "https://partner.example.com/ok",
      callbackUrl: "https://partner.example.com/hook",
      attribution: { utm_source: "vk", utm_medium: "cpc" },
    });
    const res = await api(`/api/v1/intents/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({
      id,
      kind: "gear",
      status: "requires_payment",
      intentAmount: 9900,
      discountAmount: 0,
      feeAmount: 495,
      paymentAmount: 10395,
      currency: "RUB",
      gift: null,
      gear: { platform: "730", item: "sticker-capsule", title: "Sticker Capsule 2", account: "76561198000000001" },
      attribution: { utm_source: "vk", utm_medium: "cpc" },
      paymentUrl: `${base()}/pay/${id}`,
      successUrl: "https://partner.example.com/ok",
      failureUrl: null,
      callbackUrl: "https://partner.example.com/hook",
      paidAt: null,
      expiredAt: null,
    });
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(900_000);
  });

  it("shows it to another token of the same owner", async () => {
    const id = await createGear();
    expect((await api(`/api/v1/intents/${id}`, { token: tokens.fullSameOwner })).status).toBe(200);
  });

  it.each([
    ["another owner's token", () => tokens.otherOwner, null],
    ["an unknown id", () => tokens.full, UNKNOWN],
    ["a malformed id", () => tokens.full, "not-a-uuid"],
    ["an id with a non-hex character", () => tokens.full, "0000000g-0000-4000-8000-000000000000"],
  ])("is 404 for %s, all alike", async (_, token, given) => {
    const id = given ?? (await createGear());
    const res = await api(`/api/v1/intents/${id}`, { token: token() });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, message: `intent ${id} not found` });
  });
});

describe("guests' storefront tokens", () => {
  // Every guest's token belongs to the one guest owner: what one guest makes is that token's alone.
  const guestToken = async (): Promise<string> => {
    const res = await fetch(`${base()}/api/storefront/token`, { method: "POST", headers: { "sec-fetch-site": "same-origin" } });
    const issued = (await res.json()) as { token: string; owner: string };
    expect(issued.owner).toBe("guest");
    return issued.token;
  };

  it("cannot read another guest's intent: 404 exactly as for an unknown id", async () => {
    const [a, b] = [await guestToken(), await guestToken()];
    const created = await api("/api/v1/gear", { token: a, body: gearBody({ email: "guest-a@example.com" }) });
    expect(created.status).toBe(201);
    const id = created.body.intentId as string;
    expect((await api(`/api/v1/intents/${id}`, { token: a })).status).toBe(200);
    const theirs = await api(`/api/v1/intents/${id}`, { token: b });
    const unknown = await api(`/api/v1/intents/${UNKNOWN}`, { token: b });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ code: 404, message: `intent ${id} not found` });
    expect(unknown.body).toMatchObject({ code: 404, message: `intent ${UNKNOWN} not found` });
  });

  it("never replay each other's Idempotency-Key: each guest's key makes its own intent", async () => {
    const [a, b] = [await guestToken(), await guestToken()];
    const key = crypto.randomUUID();
    const body = gearBody({ email: "guest-keys@example.com" });
    const first = await api("/api/v1/gear", { token: a, body, headers: { "idempotency-key": key } });
    const second = await api("/api/v1/gear", { token: b, body, headers: { "idempotency-key": key } });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(second.body.intentId).not.toBe(first.body.intentId);
    const again = await api("/api/v1/gear", { token: a, body, headers: { "idempotency-key": key } });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });
});

describe("creation answers", () => {
  it("carry the payment page's URL", async () => {
    const gift = await api("/api/v1/gifts/verify", { body: giftBody() });
    expect(gift.body.paymentUrl).toBe(`${base()}/pay/${gift.body.intentId}`);
    const gear = await api("/api/v1/gear", { body: gearBody() });
    expect(gear.body.paymentUrl).toBe(`${base()}/pay/${gear.body.intentId}`);
  });

  it("accept redirect URLs for gifts too, validated the same way", async () => {
    const ok = await api("/api/v1/gifts/verify", { body: giftBody({ successUrl: "https://partner.example.com/ok" }) });
    expect(ok.status).toBe(201);
    expect((await api(`/api/v1/intents/${ok.body.intentId}`)).body.successUrl).toBe("https://partner.example.com/ok");
    const bad = await api("/api/v1/gifts/verify", { body: giftBody({ failureUrl: "javascript:alert(1)" }) });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 400, message: "failureUrl must be an absolute https:// URL (http:// only for localhost)" });
  });
});

describe("Idempotency-Key over HTTP", () => {
  const emailCount = async (email: string) =>
    (await appQuery<{ n: number }>("SELECT count(*)::int AS n FROM intents WHERE email = $1", [email]))[0]!.n;

  it("replays the first response with Idempotent-Replayed: true and creates nothing more", async () => {
    const key = crypto.randomUUID();
    const body = gearBody({ email: "idem-http@example.com" });
    const first = await api("/api/v1/gear", { body, headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await api("/api/v1/gear", {
      rawBody: JSON.stringify(body, null, 2),
      headers: { "idempotency-key": key, "content-type": "application/json" },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    // Keys belong to the owner, not the token.
    const sameOwner = await api("/api/v1/gear", { body, token: tokens.fullSameOwner, headers: { "idempotency-key": key } });
    expect(sameOwner.body).toEqual(first.body);
    expect(await emailCount("idem-http@example.com")).toBe(1);
    const otherOwner = await api("/api/v1/gear", { body, token: tokens.otherOwner, headers: { "idempotency-key": key } });
    expect(otherOwner.status).toBe(201);
    expect(otherOwner.body.intentId).not.toBe(first.body.intentId);
  });

  it.each([
    [
      "another body",
      "/api/v1/gear",
      gearBody({ email: "other@example.com" }),
      409,
      "was already used with a different request body; use a new key for a new request",
    ],
    [
      "another endpoint",
      "/api/v1/gifts/verify",
      giftBody(),
      409,
      "was already used for POST /api/v1/gear; use a new key for a new request",
    ],
  ])("is 409 for the same key with %s", async (_, path, body, code, tail) => {
    const key = crypto.randomUUID();
    expect((await api("/api/v1/gear", { body: gearBody(), headers: { "idempotency-key": key } })).status).toBe(201);
    const res = await api(path, { body, headers: { "idempotency-key": key } });
    expect(res.status).toBe(code);
    expect(res.body).toMatchObject({ code, message: `Idempotency-Key "${key}" ${tail}` });
  });

  it("refuses a malformed key with 400 before doing anything", async () => {
    const res = await api("/api/v1/gear", { body: gearBody(), headers: { "idempotency-key": "k".repeat(256) } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 400,
      message: "Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID is a good choice)",
    });
  });

  it("lets a corrected retry run again after a failed request", async () => {
    const key = crypto.randomUUID();
    const bad = await api("/api/v1/gifts/verify", { body: giftBody({ code: "NOPE" }), headers: { "idempotency-key": key } });
    expect(bad.status).toBe(400);
    const fixed = await api("/api/v1/gifts/verify", { body: giftBody(), headers: { "idempotency-key": key } });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("creates one intent for 20 concurrent requests with one key", async () => {
    const key = crypto.randomUUID();
    const body = giftBody({ email: "idem-race@example.com" });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => api("/api/v1/gifts/verify", { body, headers: { "idempotency-key": key } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.intentId)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    expect(await emailCount("idem-race@example.com")).toBe(1);
  });
});

describe("the payment page", () => {
  it("shows what is bought, the amount, the time left and a sandbox mark, in Russian or English", async () => {
    const id = await createGear({ item: "sticker-capsule" });
    const ru = await page(`/pay/${id}`);
    expect(ru.status).toBe(200);
    expect(ru.html).toContain("Тестовый режим");
    expect(ru.html).toContain("Sticker Capsule 2");
    expect(ru.html).toContain("76561198000000001");
    expect(ru.html).toMatch(/Оплатить 103,95\s₽/);
    expect(ru.html).toMatch(/Осталось: 1[45]:\d\d/);
    expect(ru.html).toContain(`action="/pay/${id}/submit"`);
    const en = await page(`/pay/${id}`, "en");
    expect(en.html).toContain("Sandbox");
    expect(en.html).toContain("Decline payment");
    expect(en.html).not.toContain("lifecycle@example.com"); // masked: anyone with the link sees the page
  });

  it("pays and redirects (303) to the intent's successUrl; the callback is queued", async () => {
    const id = await createGear({ successUrl: "https://partner.example.com/ok?order=42", callbackUrl: "https://partner.example.com/hook" });
    expect(await submit(id, "choice=pay")).toMatchObject({ status: 303, location: "https://partner.example.com/ok?order=42" });
    expect(await status(id)).toBe("paid");
    const deliveries = await appQuery("SELECT event_type, body FROM webhook_deliveries WHERE intent_id = $1", [id]);
    expect(deliveries).toHaveLength(1);
    expect(JSON.parse(deliveries[0].body)).toMatchObject({
      type: "intent.paid",
      data: { id, status: "paid", paymentUrl: `${base()}/pay/${id}` },
    });
    // The page now says it is paid and offers the way back; pressing Pay again lands in the same place.
    expect((await page(`/pay/${id}`)).html).toContain("Оплачено");
    expect(await submit(id, "choice=pay")).toMatchObject({ status: 303, location: "https://partner.example.com/ok?order=42" });
  });

  it("pays and redirects to the store's result page when there is no successUrl", async () => {
    const id = await createGear();
    expect(await submit(id, "choice=pay")).toMatchObject({ status: 303, location: `/pay/${id}/result` });
    const result = await page(`/pay/${id}/result`);
    expect(result.status).toBe(200);
    expect(result.html).toContain("Оплачено");
  });

  it("declines: the intent is canceled, the unit comes back, and the buyer goes to failureUrl", async () => {
    const before = await available("ak47-redline");
    const id = await createGear({ failureUrl: "https://partner.example.com/fail" });
    expect(await available("ak47-redline")).toBe(before - 1);
    expect(await submit(id, "choice=decline")).toMatchObject({ status: 303, location: "https://partner.example.com/fail" });
    expect(await status(id)).toBe("canceled");
    expect(await available("ak47-redline")).toBe(before);
    expect(await submit(id, "choice=pay")).toMatchObject({ status: 303, location: `/pay/${id}` });
    expect((await page(`/pay/${id}`)).html).toContain("Оплата отменена");
  });

  it("refuses to take payment once the time is up and says so", async () => {
    const id = await createGear({ successUrl: "https://partner.example.com/ok" });
    await appQuery("UPDATE intents SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    expect(await status(id)).toBe("expired");
    expect(await submit(id, "choice=pay")).toMatchObject({ status: 303, location: `/pay/${id}` });
    const [row] = await appQuery("SELECT status, paid_at FROM intents WHERE id = $1", [id]);
    expect(row).toEqual({ status: "requires_payment", paid_at: null });
    const shown = await page(`/pay/${id}`);
    expect(shown.html).toContain("Время на оплату истекло");
    expect(shown.html).not.toContain(`action="/pay/${id}/submit"`);
  });

  it("never redirects anywhere a request names", async () => {
    const id = await createGear();
    const res = await submit(id, "choice=pay&successUrl=https%3A%2F%2Fevil.example%2F&next=https%3A%2F%2Fevil.example%2F", {
      path: `/pay/${id}/submit?next=https://evil.example/&successUrl=https://evil.example/`,
    });
    expect(res).toMatchObject({ status: 303, location: `/pay/${id}/result` });
  });

  it.each([
    ["no choice", "", undefined, 400, "choice must be one of: pay, decline"],
    ["an unknown choice", "choice=refund", undefined, 400, "choice must be one of: pay, decline"],
    ["a JSON body", '{"choice":"pay"}', "application/json", 400, "choice must be one of: pay, decline"],
  ])("answers %s with %i", async (_, form, type, code, text) => {
    const id = await createGear();
    expect(await submit(id, form, { type })).toEqual({ status: code, location: null, text });
    expect(await status(id)).toBe("requires_payment");
  });

  it("is 404 for an unknown or malformed intent", async () => {
    expect(await submit(UNKNOWN, "choice=pay")).toMatchObject({ status: 404, text: "no such payment" });
    expect(await submit("nope", "choice=pay")).toMatchObject({ status: 404 });
    const missing = await page(`/pay/${UNKNOWN}`);
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("Платёж не найден");
    expect((await page(`/pay/${UNKNOWN}/result`)).status).toBe(404);
  });
});
