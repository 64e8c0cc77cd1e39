import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAnswered, refusal } from "@/tests/support/refusal";
import { INTENT_STATUSES, canTransition, type IntentStatus } from "@/lib/intents/states";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { intentSchema } from "@/lib/schemas/intents";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { cancelIntent, expireDueIntents, fulfilIntent, getIntentForOwner, payIntent } from "@/lib/services/intent-lifecycle";
import { refundIntent } from "@/lib/services/refunds";
import { submitPaymentChoice } from "@/lib/services/payments";
import { createApiToken, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerAccount } from "@/tests/support/partners";

const ORIGIN = "https://store.test";
const SANDBOX = { provider: "sandbox", providerPaymentId: "sbx_test", origin: ORIGIN };

let t: TestDatabase;
let owner: AuthToken;
let sameOwner: AuthToken;
let stranger: AuthToken;

async function tokenFor(email: string): Promise<AuthToken> {
  // Partners: a test here holds more than a shopper may (lib/services/holds.ts).
  const userId = await partnerAccount(t.db, email);
  const created = await createApiToken(t.db, { userId, name: email, scopes: ["gifts:verify", "gear:create", "intents:read"] });
  return { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
}

beforeAll(async () => {
  t = await createTestDatabase();
  owner = await tokenFor("owner@example.com");
  sameOwner = await tokenFor("owner@example.com");
  stranger = await tokenFor("stranger@example.com");
});

afterAll(() => t?.close());

async function one<T extends Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T> {
  const { rows } = await t.db.execute(query);
  return rows[0] as T;
}

let itemSeq = 0;
/** A gear item of its own per test, so stock counts are exact. */
async function newItem(stock: number): Promise<string> {
  const item = `lifecycle-${++itemSeq}`;
  await t.db.execute(
    sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, ${item}, ${`Item ${itemSeq}`}, 10000, ${stock})`,
  );
  return item;
}

const gear = (item: string, extra: Record<string, unknown> = {}) =>
  reserveGear(
    t.db,
    owner,
    gearIntentRequestSchema.parse({ account: "76561198000000001", platform: "730", item, email: "g@example.com", ...extra }),
    ORIGIN,
  );

const gift = (extra: Record<string, unknown> = {}) =>
  verifyGift(
    t.db,
    owner,
    giftVerifyRequestSchema.parse({
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: "g@example.com",
      fee: "excluded",
      ...extra,
    }),
    ORIGIN,
  );

const stockOf = (item: string) =>
  one<{ stock: number; held: number }>(
    sql`SELECT g.stock, (SELECT count(*)::int FROM intents i WHERE i.gear_item_id = g.id
          AND i.status = 'requires_payment' AND i.expires_at > now()) AS held
        FROM gear_items g WHERE g.item = ${item}`,
  );

/** The stored row; times as ISO strings at the millisecond, as the API shows them. */
const row = (id: string) =>
  one<{
    status: string;
    paid_at: string | null;
    canceled_at: string | null;
    expired_at: string | null;
    expires_at: string;
    payment_provider: string | null;
    provider_payment_id: string | null;
  }>(
    sql`SELECT status, payment_provider, provider_payment_id,
          to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS paid_at,
          to_char(canceled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS canceled_at,
          to_char(expired_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expired_at,
          to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
        FROM intents WHERE id = ${id}`,
  );

const lapse = (id: string) => t.db.execute(sql`UPDATE intents SET expires_at = now() - interval '1 second' WHERE id = ${id}`);

const outbox = (id: string) =>
  t.db
    .execute<{ event_type: string; url: string; user_id: string; body: string; status: string }>(
      sql`SELECT event_type, url, user_id, body, status FROM webhook_deliveries WHERE intent_id = ${id}`,
    )
    .then((r) => r.rows);

describe("paying", () => {
  it("moves the intent to paid, takes the unit out of stock for good and queues one intent.paid callback", async () => {
    const item = await newItem(3);
    const created = await gear(item, { callbackUrl: "https://partner.example.com/hook", successUrl: "https://partner.example.com/ok" });
    expect(await stockOf(item)).toEqual({ stock: 3, held: 1 });

    const view = await payIntent(t.db, created.intentId, SANDBOX);
    expect(view.status).toBe("paid");
    expect(await stockOf(item)).toEqual({ stock: 2, held: 0 });
    expect(await row(created.intentId)).toMatchObject({
      status: "paid",
      paid_at: expect.stringMatching(/^\d{4}-/),
      payment_provider: "sandbox",
      provider_payment_id: "sbx_test",
    });

    const api = await getIntentForOwner(t.db, owner, created.intentId, ORIGIN);
    expect(intentSchema.parse(api)).toEqual(api);
    expect(api).toMatchObject({ status: "paid", paidAt: expect.any(String), canceledAt: null, expiredAt: null });

    const events = await outbox(created.intentId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event_type: "intent.paid",
      url: "https://partner.example.com/hook",
      user_id: owner.userId,
      status: "pending",
    });
    const body = JSON.parse(events[0]!.body);
    expect(body).toEqual({ type: "intent.paid", timestamp: expect.any(String), data: api });
  });

  it("queues no callback when the intent has no callbackUrl", async () => {
    const created = await gear(await newItem(1));
    await payIntent(t.db, created.intentId, SANDBOX);
    expect(await outbox(created.intentId)).toEqual([]);
  });

  it("is refused for an intent that is no longer payable, with the reason", async () => {
    const paid = await gear(await newItem(1));
    await payIntent(t.db, paid.intentId, SANDBOX);
    const canceled = await gift();
    await cancelIntent(t.db, canceled.intentId, ORIGIN);
    const lapsed = await gift();
    await lapse(lapsed.intentId);

    await expect(refusal(payIntent(t.db, paid.intentId, SANDBOX))).resolves.toMatchObject({
      status: 409,
      reason: "intent_state_conflict",
      message: `intent ${paid.intentId} is already paid`,
    });
    await expect(refusal(payIntent(t.db, canceled.intentId, SANDBOX))).resolves.toMatchObject({
      status: 409,
      message: `intent ${canceled.intentId} is canceled and cannot be paid`,
    });
    await expect(refusal(payIntent(t.db, lapsed.intentId, SANDBOX))).resolves.toMatchObject({
      status: 409,
      message: `intent ${lapsed.intentId} has expired and can no longer be paid`,
    });
    expect((await row(lapsed.intentId)).status).toBe("requires_payment");
  });

  it("happens once when many payments race for one intent", async () => {
    const created = await gear(await newItem(2), { callbackUrl: "https://partner.example.com/hook" });
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => payIntent(t.db, created.intentId, SANDBOX)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect(asAnswered((r as PromiseRejectedResult).reason)).toMatchObject({
        status: 409,
        message: `intent ${created.intentId} is already paid`,
      });
    }
    expect(await outbox(created.intentId)).toHaveLength(1);
  });

  it("and declining race: exactly one wins", async () => {
    const created = await gift();
    const results = await Promise.allSettled([
      payIntent(t.db, created.intentId, SANDBOX),
      cancelIntent(t.db, created.intentId, ORIGIN),
      payIntent(t.db, created.intentId, SANDBOX),
      cancelIntent(t.db, created.intentId, ORIGIN),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(["paid", "canceled"]).toContain((await row(created.intentId)).status);
  });
});

describe("declining", () => {
  it("cancels the intent, gives the unit back at once and queues no callback", async () => {
    const item = await newItem(1);
    const created = await gear(item, { callbackUrl: "https://partner.example.com/hook" });
    await expect(refusal(gear(item))).resolves.toMatchObject({ status: 409 });

    const view = await cancelIntent(t.db, created.intentId, ORIGIN);
    expect(view).toMatchObject({ status: "canceled", canceledAt: expect.any(Date), paidAt: null });
    expect(await stockOf(item)).toEqual({ stock: 1, held: 0 });
    expect(await outbox(created.intentId)).toEqual([]);
    await expect(gear(item)).resolves.toMatchObject({ verified: true });
    await expect(refusal(cancelIntent(t.db, created.intentId, ORIGIN))).resolves.toMatchObject({
      status: 409,
      message: `intent ${created.intentId} is already canceled`,
    });
  });

  it("is refused once paid", async () => {
    const created = await gift();
    await payIntent(t.db, created.intentId, SANDBOX);
    await expect(refusal(cancelIntent(t.db, created.intentId, ORIGIN))).resolves.toMatchObject({
      status: 409,
      message: `intent ${created.intentId} is paid and cannot be canceled`,
    });
  });
});

describe("fulfilling", () => {
  it("follows payment only", async () => {
    const created = await gift();
    await expect(refusal(fulfilIntent(t.db, created.intentId, ORIGIN))).resolves.toMatchObject({
      status: 409,
      message: `intent ${created.intentId} is not paid yet and cannot be fulfilled`,
    });
    await payIntent(t.db, created.intentId, SANDBOX);
    const view = await fulfilIntent(t.db, created.intentId, ORIGIN);
    expect(view).toMatchObject({ status: "fulfilled", paidAt: expect.any(Date), fulfilledAt: expect.any(Date) });
  });
});

describe("expiry", () => {
  it("reads as expired as soon as the time is up, and the sweep records exactly that", async () => {
    const item = await newItem(1);
    const due = await gear(item);
    const live = await gift();
    await lapse(due.intentId);

    const before = await getIntentForOwner(t.db, owner, due.intentId, ORIGIN);
    const { expires_at } = await row(due.intentId);
    expect(before).toMatchObject({ status: "expired", expiredAt: expires_at, expiresAt: expires_at });
    expect((await row(due.intentId)).status).toBe("requires_payment");
    // Stock came back without the sweep.
    expect(await stockOf(item)).toEqual({ stock: 1, held: 0 });

    expect(await expireDueIntents(t.db)).toBeGreaterThanOrEqual(1);
    expect(await row(due.intentId)).toMatchObject({ status: "expired", expired_at: expires_at });
    expect((await row(live.intentId)).status).toBe("requires_payment");
    // Nothing a reader sees changes when the sweep records it.
    expect(await getIntentForOwner(t.db, owner, due.intentId, ORIGIN)).toEqual(before);
    expect(await expireDueIntents(t.db)).toBe(0);
  });

  it("gives stock back to a new reservation while the old intent is still unswept", async () => {
    const item = await newItem(1);
    const first = await gear(item);
    await expect(refusal(gear(item))).resolves.toMatchObject({ status: 409, message: `item ${item} is out of stock` });
    await lapse(first.intentId);
    const second = await gear(item);
    expect(second.intentId).not.toBe(first.intentId);
    await expect(refusal(payIntent(t.db, first.intentId, SANDBOX))).resolves.toMatchObject({ status: 409 });
    await payIntent(t.db, second.intentId, SANDBOX);
    expect(await stockOf(item)).toEqual({ stock: 0, held: 0 });
  });

  it("sweeps in batches and skips intents another transaction holds", async () => {
    await expireDueIntents(t.db); // what earlier tests left due
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await gift()).intentId);
    await t.db.execute(sql`UPDATE intents SET expires_at = now() - interval '1 minute' WHERE id IN ${ids}`);
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM intents WHERE id = $1 FOR UPDATE", [ids[0]]);
      expect(await expireDueIntents(t.db, { limit: 2 })).toBe(2);
      expect(await expireDueIntents(t.db, { limit: 100 })).toBe(2);
      expect((await row(ids[0]!)).status).toBe("requires_payment");
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    expect(await expireDueIntents(t.db)).toBe(1);
    for (const id of ids) expect((await row(id)).status).toBe("expired");
  });
});

describe("promo-code uses", () => {
  beforeAll(async () => {
    await t.db.execute(sql`INSERT INTO promo_codes (code, kind, value, max_uses) VALUES ('ONCE', 'percent', 10, 1)`);
  });
  const uses = () => one<{ uses: number }>(sql`SELECT uses FROM promo_codes WHERE code = 'ONCE'`).then((r) => r.uses);

  it("come back when the intent is declined", async () => {
    const first = await gift({ code: "ONCE" });
    expect(await uses()).toBe(1);
    await expect(refusal(gift({ code: "ONCE" }))).resolves.toMatchObject({
      status: 400,
      reason: "promo_code_used_up",
      message: "promo code ONCE has reached its usage limit",
    });
    await cancelIntent(t.db, first.intentId, ORIGIN);
    expect(await uses()).toBe(0);
  });

  it("come back when the sweep records the expiry (not before)", async () => {
    const first = await gift({ code: "ONCE" });
    await lapse(first.intentId);
    // Stock returns by itself; a use is a counter, returned when the expiry is recorded.
    expect(await uses()).toBe(1);
    await expireDueIntents(t.db);
    expect(await uses()).toBe(0);
  });

  it("are kept by a paid intent", async () => {
    const first = await gift({ code: "ONCE" });
    await payIntent(t.db, first.intentId, SANDBOX);
    await fulfilIntent(t.db, first.intentId, ORIGIN);
    expect(await uses()).toBe(1);
    await expect(refusal(gift({ code: "ONCE" }))).resolves.toMatchObject({ status: 400 });
  });
});

describe("reading an intent", () => {
  it("shows the owner everything about it, whichever of their tokens asks", async () => {
    const created = await gear(await newItem(1), {
      code: "GEAR15",
      additionalFields: { storeId: "s-1", tradeLink: "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12" },
      attribution: { utm_source: "vk" },
      successUrl: "https://partner.example.com/ok",
      failureUrl: "https://partner.example.com/fail",
    });
    const api = await getIntentForOwner(t.db, sameOwner, created.intentId, ORIGIN);
    expect(api).toEqual({
      id: created.intentId,
      kind: "gear",
      status: "requires_payment",
      paymentStatus: "pending",
      deliveryStatus: null,
      deliveryId: null,
      deliveryStep: null,
      deliveryFailureReason: null,
      intentAmount: 10000,
      discountAmount: 1500,
      feeAmount: 425,
      paymentAmount: 8925,
      currency: "RUB",
      feeMode: "excluded",
      promoCode: "GEAR15",
      gift: null,
      gear: {
        platform: "730",
        item: expect.stringMatching(/^lifecycle-/),
        title: expect.stringMatching(/^Item /),
        account: "76561198000000001",
        tradeLink: "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12",
        storeId: "s-1",
      },
      email: "g@example.com",
      attribution: { utm_source: "vk" },
      paymentUrl: `${ORIGIN}/pay/${created.intentId}`,
      successUrl: "https://partner.example.com/ok",
      failureUrl: "https://partner.example.com/fail",
      callbackUrl: null,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      paidAt: null,
      fulfilledAt: null,
      canceledAt: null,
      expiredAt: null,
      refundedAt: null,
      refundReason: null,
      timeline: [{ at: api.createdAt, kind: "status", value: "requires_payment", reason: "created" }],
    });
    expect(Date.parse(api.expiresAt) - Date.parse(api.createdAt)).toBe(900_000);
  });

  it("describes a gift by game and edition", async () => {
    const created = await gift({
      item: "1091500",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "KZ", packageId: 10915002 },
    });
    const api = await getIntentForOwner(t.db, owner, created.intentId, ORIGIN);
    expect(api.gift).toEqual({
      appId: 1091500,
      packageId: 10915002,
      title: "Cyberpunk 2077",
      edition: expect.stringContaining("Ultimate"),
      region: "KZ",
      inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG",
      recipientSteamId64: "76561198853767868",
    });
    expect(api.gear).toBeNull();
  });

  it.each([
    ["another owner's token", () => stranger, null],
    ["a malformed id", () => owner, "not-a-uuid"],
    ["an unknown id", () => owner, "00000000-0000-4000-8000-000000000000"],
  ])("answers 404 to %s, all alike", async (_, who, id) => {
    const created = await gift();
    const intentId = id ?? created.intentId;
    await expect(refusal(getIntentForOwner(t.db, who(), intentId, ORIGIN))).resolves.toMatchObject({
      status: 404,
      message: `intent ${intentId} not found`,
    });
  });
});

describe("the payment page's buttons", () => {
  const urls = { successUrl: "https://partner.example.com/ok", failureUrl: "https://partner.example.com/fail" };

  it.each([
    ["pay with a successUrl", urls, "pay", "https://partner.example.com/ok", "paid"],
    ["pay without one", {}, "pay", "/pay/{id}/result", "paid"],
    ["decline with a failureUrl", urls, "decline", "https://partner.example.com/fail", "canceled"],
    ["decline without one", {}, "decline", "/pay/{id}/result", "canceled"],
  ] as const)("%s", async (_, extra, choice, location, status) => {
    const created = await gift(extra);
    const submitted = await submitPaymentChoice(t.db, created.intentId, choice, ORIGIN);
    expect(submitted).toEqual({ found: true, location: location.replace("{id}", created.intentId) });
    expect((await row(created.intentId)).status).toBe(status);
    // The same press again (a resubmitted form) lands in the same place and changes nothing.
    expect(await submitPaymentChoice(t.db, created.intentId, choice, ORIGIN)).toEqual(submitted);
  });

  it.each([
    ["pay an expired intent", "expire", "pay", "/pay/{id}"],
    ["decline an expired intent", "expire", "decline", "https://partner.example.com/fail"],
    ["pay a declined intent", "decline", "pay", "/pay/{id}"],
    ["decline a paid intent", "pay", "decline", "/pay/{id}"],
  ] as const)("refused or settled already: %s", async (_, before, choice, location) => {
    const created = await gift(urls);
    if (before === "expire") await lapse(created.intentId);
    if (before === "decline") await cancelIntent(t.db, created.intentId, ORIGIN);
    if (before === "pay") await payIntent(t.db, created.intentId, SANDBOX);
    const status = (await row(created.intentId)).status;
    expect(await submitPaymentChoice(t.db, created.intentId, choice, ORIGIN)).toEqual({
      found: true,
      location: location.replace("{id}", created.intentId),
    });
    expect((await row(created.intentId)).status).toBe(status);
  });

  it("records the sandbox's payment reference", async () => {
    const created = await gift();
    await submitPaymentChoice(t.db, created.intentId, "pay", ORIGIN);
    expect(await row(created.intentId)).toMatchObject({
      payment_provider: "sandbox",
      provider_payment_id: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
    });
  });

  it("finds nothing for unknown or malformed ids", async () => {
    expect(await submitPaymentChoice(t.db, "00000000-0000-4000-8000-000000000000", "pay", ORIGIN)).toEqual({ found: false });
    expect(await submitPaymentChoice(t.db, "../../admin", "pay", ORIGIN)).toEqual({ found: false });
  });
});

describe("the database's transition trigger", () => {
  /** An intent brought to `status` the legal way. */
  async function intentIn(status: IntentStatus): Promise<string> {
    const { intentId } = await gift();
    if (status === "paid" || status === "fulfilled" || status === "refunded") await payIntent(t.db, intentId, SANDBOX);
    if (status === "fulfilled") await fulfilIntent(t.db, intentId, ORIGIN);
    if (status === "refunded")
      await refundIntent(t.db, intentId, {
        by: { kind: "staff", actor: { userId: null, label: "ops@staff.example.com" } },
        note: "the buyer asked",
        origin: ORIGIN,
      });
    if (status === "canceled") await cancelIntent(t.db, intentId, ORIGIN);
    if (status === "expired") {
      await lapse(intentId);
      await t.db.execute(sql`UPDATE intents SET status = 'expired' WHERE id = ${intentId}`);
    }
    return intentId;
  }

  const moves = INTENT_STATUSES.flatMap((from) => INTENT_STATUSES.filter((to) => to !== from).map((to) => [from, to] as const));

  it.each(moves)("agrees with the application's table on %s -> %s", async (from, to) => {
    const id = await intentIn(from);
    // Expiring needs the time to be up; every other move out of requires_payment needs it not to be.
    if (from === "requires_payment" && to === "expired") await lapse(id);
    let refusal: string | null = null;
    try {
      // A refund names its reason (a CHECK); the trigger alone decides whether the move exists.
      await t.db.execute(sql`UPDATE intents SET status = ${to}, refund_reason = ${to === "refunded" ? "operator" : null} WHERE id = ${id}`);
    } catch (err) {
      const cause = ((err as { cause?: unknown }).cause ?? err) as { code?: string };
      refusal = cause.code ?? "?";
    }
    expect(refusal === null).toBe(canTransition(from, to));
    if (refusal) expect(refusal).toBe("GKSTA");
  });

  it("refuses paying after the time is up (GKEXP) and expiring before it (GKSTA)", async () => {
    const late = await intentIn("requires_payment");
    await lapse(late);
    const early = await intentIn("requires_payment");
    const code = async (q: ReturnType<typeof sql>) => {
      try {
        await t.db.execute(q);
        return "accepted";
      } catch (err) {
        return (((err as { cause?: unknown }).cause ?? err) as { code?: string }).code;
      }
    };
    expect(await code(sql`UPDATE intents SET status = 'paid' WHERE id = ${late}`)).toBe("GKEXP");
    expect(await code(sql`UPDATE intents SET status = 'expired' WHERE id = ${early}`)).toBe("GKSTA");
  });
});
