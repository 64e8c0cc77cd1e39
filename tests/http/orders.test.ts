import crypto from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, createPool } from "@/lib/db/client";
import { registerUser } from "@/lib/services/users";
import { Browser } from "./browser";
import { api, appQuery, expectErrorBody } from "./support";

const base = () => inject("appBaseUrl");
const password = "correct horse battery";

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base()}${path}`, { headers, redirect: "manual" });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

async function json(path: string) {
  const res = await get(path);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  if (res.status >= 400) expectErrorBody(res.status, body);
  return { ...res, body };
}

/** A gift for Portal 2, paid on the payment page's form, and the `t` of the order link its receipt carries. */
async function paidGift(token?: string): Promise<{ intentId: string; t: string }> {
  const created = await api("/api/v1/gifts/verify", {
    token,
    body: {
      item: "620",
      target: { inviteUrl: "https://s.team/p/hgkm-nprt/QWERTYUI", region: "KZ" },
      email: "orders-http@example.com",
      fee: "excluded",
    },
  });
  expect(created.status).toBe(201);
  const intentId: string = created.body.intentId;
  const paid = await fetch(`${base()}/pay/${intentId}/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "choice=pay",
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  const [mail] = await appQuery<{ text: string }>("SELECT text FROM mail_messages WHERE intent_id = $1 AND kind = 'receipt'", [intentId]);
  const t = new RegExp(`/orders/${intentId}\\?t=([A-Za-z0-9_-]{43})`).exec(mail!.text)?.[1];
  expect(t).toBeDefined();
  return { intentId, t: t! };
}

/** One character of the proof changed: still 43 base64url characters, no longer the MAC. */
const tamper = (t: string) => `${t.slice(0, 10)}${t[10] === "A" ? "B" : "A"}${t.slice(11)}`;

describe("the order page and its live route, for a guest with the signed link", () => {
  let order: { intentId: string; t: string };
  beforeAll(async () => {
    order = await paidGift();
  });

  it("shows the order to the signed link's holder: what, for whom, the amounts and the timeline so far", async () => {
    const page = await get(`/orders/${order.intentId}?t=${order.t}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Portal 2");
    expect(page.text).toContain("https://s.team/p/hgkm-nprt/QWERTYUI");
    expect(page.text).toContain("Казахстан");
    expect(page.text).toContain("Оплачено");
    expect(page.text).toContain("В очереди: заказ отправит сотрудник GiftKey");
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  it("is the same not-found page without the link's proof, with a tampered or another order's proof, and for unknown ids", async () => {
    const other = await paidGift();
    const unknown = crypto.randomUUID();
    // What an unknown id gets, with the per-request nonce and the id itself blanked out.
    const same = (html: string, id: string) => html.replaceAll(id, "ID").replace(/nonce(="|\\":\\")[^"\\]+/g, "nonce");
    const reference = same((await get(`/orders/${unknown}`)).text, unknown);
    for (const path of [
      `/orders/${order.intentId}`,
      `/orders/${order.intentId}?t=`,
      `/orders/${order.intentId}?t=${tamper(order.t)}`,
      `/orders/${order.intentId}?t=${other.t}`,
      `/orders/${order.intentId}?t=${order.t}x`,
      `/orders/${unknown}?t=${order.t}`,
    ]) {
      const page = await get(path);
      expect(page.status, path).toBe(404);
      expect(page.text, path).not.toContain("Portal 2");
      expect(page.text, path).not.toContain("hgkm-nprt");
      if (!path.includes("?")) expect(same(page.text, order.intentId), path).toBe(reference);
    }
    expect((await get(`/orders/not-an-id?t=${order.t}`)).status).toBe(404);
  });

  it("answers the live refresh with the state and timeline, and the catalogue's 404 otherwise", async () => {
    const ok = await json(`/orders/${order.intentId}/status?t=${order.t}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(ok.body).toEqual({
      status: "paid",
      deliveryStatus: "pending",
      deliveryStep: "queued",
      timeline: [
        expect.objectContaining({ kind: "status", value: "requires_payment" }),
        expect.objectContaining({ kind: "status", value: "paid" }),
        expect.objectContaining({ kind: "delivery", value: "queued", reason: "manual" }),
      ],
    });
    for (const path of [
      `/orders/${order.intentId}/status`,
      `/orders/${order.intentId}/status?t=${tamper(order.t)}`,
      `/orders/${crypto.randomUUID()}/status?t=${order.t}`,
      `/orders/not-an-id/status`,
    ]) {
      const refused = await json(path);
      expect(refused.status, path).toBe(404);
      expect(refused.body, path).toMatchObject({ code: 404, reason: "intent_not_found" });
    }
  });

  it("is linked from the payment result page with the same signed link the receipt has", async () => {
    const result = await get(`/pay/${order.intentId}/result`);
    expect(result.status).toBe(200);
    expect(result.text).toContain(`href="/orders/${order.intentId}?t=${order.t}"`);
    expect(result.text).toContain("Что дальше");
  });
});

describe("the order page for the signed-in owner", () => {
  const email = `orders-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const stranger = `orders-${crypto.randomBytes(4).toString("hex")}@example.com`;
  beforeAll(async () => {
    const pool = createPool(inject("appDatabaseUrl"), 1);
    try {
      for (const who of [email, stranger]) expect((await registerUser(createDb(pool), { email: who, password })).ok).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it("opens without a signed link for the account that ordered, and for no one else", async () => {
    const owner = new Browser();
    expect((await owner.signIn(email, password)).error).toBeNull();
    const { token } = await owner.storefrontToken();
    const { intentId } = await paidGift(token);

    const page = await owner.fetch(`/orders/${intentId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Portal 2");
    const live = await owner.fetch(`/orders/${intentId}/status`);
    expect(live.status).toBe(200);
    expect(((await live.json()) as { status: string }).status).toBe("paid");
    // The account's order list links to it.
    expect(await (await owner.fetch("/account")).text()).toContain(`href="/orders/${intentId}"`);

    const other = new Browser();
    expect((await other.signIn(stranger, password)).error).toBeNull();
    for (const browser of [other, new Browser()]) {
      expect((await browser.fetch(`/orders/${intentId}`)).status).toBe(404);
      const refused = await browser.fetch(`/orders/${intentId}/status`);
      expect(refused.status).toBe(404);
      expectErrorBody(404, await refused.json());
    }
  });
});
