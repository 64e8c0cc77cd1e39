import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DomainError } from "@/lib/errors";
import type * as Delivery from "@/lib/services/delivery";
import type * as Lifecycle from "@/lib/services/intent-lifecycle";
import type * as Refunds from "@/lib/services/refunds";
import type * as Gifts from "@/lib/services/gifts";
import type * as Gear from "@/lib/services/gear";
import type * as Tokens from "@/lib/services/tokens";
import type { AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

// After payment, on PostgreSQL: a paid order is delivered by the sandbox bot or by people, or it
// fails, is retried on the schedule, and its money goes back; operators and partners refund; stock
// and promo-code uses return; every step lands in the intent's timeline and the shopper's mail.
// The sandbox provider, no pause between its steps and two quick retries, set before the app loads.
vi.hoisted(() => {
  process.env.DELIVERY_PROVIDER = "sandbox";
  process.env.SANDBOX_DELIVERY_DELAY_MS = "0";
  process.env.DELIVERY_RETRY_SCHEDULE = "0s,0s";
});

const ORIGIN = "https://store.example.com";
let t: TestDatabase;
let token: AuthToken;
let delivery: typeof Delivery;
let lifecycle: typeof Lifecycle;
let refunds: typeof Refunds;
let gifts: typeof Gifts;
let gear: typeof Gear;
let tokens: typeof Tokens;

beforeAll(async () => {
  [delivery, lifecycle, refunds, gifts, gear, tokens] = await Promise.all([
    import("@/lib/services/delivery"),
    import("@/lib/services/intent-lifecycle"),
    import("@/lib/services/refunds"),
    import("@/lib/services/gifts"),
    import("@/lib/services/gear"),
    import("@/lib/services/tokens"),
  ]);
  t = await createTestDatabase();
  const { partnerAccount } = await import("@/tests/support/partners");
  const userId = await partnerAccount(t.db, "delivery-partner@example.com");
  const created = await tokens.createApiToken(t.db, {
    userId,
    name: "partner",
    scopes: ["gifts:verify", "gear:create", "intents:read", "intents:refund"],
  });
  token = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
});
afterAll(() => t?.close());

const SANDBOX = { provider: "sandbox", providerPaymentId: "sbx_test", origin: ORIGIN };

async function paidGift(inviteToken: string, code?: string): Promise<string> {
  const { giftVerifyRequestSchema } = await import("@/lib/schemas/gifts");
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: `https://s.team/p/fhgc-rdqr/${inviteToken}`, region: "RU" },
    email: "friend-buyer@example.com",
    fee: "excluded",
    ...(code ? { code } : {}),
  });
  const { intentId } = await gifts.verifyGift(t.db, token, body, ORIGIN);
  await lifecycle.payIntent(t.db, intentId, { ...SANDBOX, providerPaymentId: `sbx_${intentId.slice(0, 8)}` });
  return intentId;
}

async function paidGear(item: string, tradeToken: string): Promise<string> {
  const { gearIntentRequestSchema } = await import("@/lib/schemas/gear");
  const body = gearIntentRequestSchema.parse({
    account: "76561198000000001",
    platform: "730",
    item,
    email: "gear-buyer@example.com",
    additionalFields: { tradeLink: `https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=${tradeToken}` },
  });
  const { intentId } = await gear.reserveGear(t.db, token, body, ORIGIN);
  await lifecycle.payIntent(t.db, intentId, { ...SANDBOX, providerPaymentId: `sbx_${intentId.slice(0, 8)}` });
  return intentId;
}

/** Runs the worker's delivery pass until nothing is due (at most `passes` times). */
async function work(passes = 10): Promise<void> {
  for (let i = 0; i < passes; i++) {
    const claimed = await delivery.claimDueDeliveries(t.db, 50, 60_000);
    if (claimed.length === 0) return;
    for (const d of claimed) await delivery.attemptDelivery(t.db, d, ORIGIN);
  }
}

const read = (intentId: string) => lifecycle.getIntentForOwner(t.db, token, intentId, ORIGIN);
const mails = async (intentId: string) =>
  (
    await t.db.execute<{ kind: string }>(sql`SELECT kind FROM mail_messages WHERE intent_id = ${intentId} ORDER BY created_at, kind`)
  ).rows.map((r) => r.kind);

describe("sandbox delivery of a gift", () => {
  it("walks friend request sent, gift sent, accepted; the intent is fulfilled and the shopper told", async () => {
    const intentId = await paidGift("NQVGTQPG");
    expect(await read(intentId)).toMatchObject({
      status: "paid",
      paymentStatus: "paid",
      deliveryStatus: "created",
      deliveryStep: "queued",
      deliveryId: expect.any(String),
    });
    await work();
    const done = await read(intentId);
    expect(done).toMatchObject({ status: "fulfilled", paymentStatus: "paid", deliveryStatus: "delivered", deliveryStep: "accepted" });
    expect(done.timeline.map((e) => `${e.kind}:${e.value}`)).toEqual([
      "status:requires_payment",
      "status:paid",
      "delivery:queued",
      "delivery:friend_request_sent",
      "delivery:gift_sent",
      "delivery:accepted",
      "status:fulfilled",
    ]);
    expect(await mails(intentId)).toEqual(["receipt", "delivered"]);
  });

  it("refunds a declined gift at once, with the reason named, and gives the promo-code use back", async () => {
    const uses = async () =>
      (await t.db.execute<{ uses: number }>(sql`SELECT uses FROM promo_codes WHERE code = 'WELCOME10'`)).rows[0]!.uses;
    const before = await uses();
    const intentId = await paidGift("DECLINED", "WELCOME10");
    expect(await uses()).toBe(before + 1);
    await work();
    const done = await read(intentId);
    expect(done).toMatchObject({
      status: "refunded",
      paymentStatus: "refunded",
      deliveryStatus: "failed",
      deliveryFailureReason: "gift_declined",
      refundReason: "delivery_failed",
      refundedAt: expect.any(String),
    });
    expect(done.timeline.at(-1)).toMatchObject({ kind: "status", value: "refunded", reason: "delivery_failed: gift_declined" });
    expect(await uses()).toBe(before);
    expect(await mails(intentId)).toEqual(["receipt", "delivery_failed_refunded"]);
  });

  it("retries a friend request that timed out on the schedule, then fails and refunds", async () => {
    const intentId = await paidGift("TIMEOUTX");
    await work();
    const done = await read(intentId);
    expect(done).toMatchObject({ status: "refunded", deliveryStatus: "failed", deliveryFailureReason: "friend_request_timeout" });
    const steps = done.timeline.filter((e) => e.kind === "delivery").map((e) => `${e.value}${e.reason ? `(${e.reason})` : ""}`);
    expect(steps).toEqual([
      "queued",
      "friend_request_sent",
      "retrying(friend_request_timeout)",
      "retrying(friend_request_timeout)",
      "failed(friend_request_timeout)",
    ]);
    const attempts = await t.db.execute<{ outcome: string }>(
      sql`SELECT a.outcome FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.intent_id = ${intentId} ORDER BY a.attempt`,
    );
    expect(attempts.rows.map((r) => r.outcome)).toEqual(["progress", "retry", "retry", "failed"]);
  });

  it("survives a provider error: the retry delivers", async () => {
    const intentId = await paidGift("FLAKYONE");
    await work();
    expect(await read(intentId)).toMatchObject({ status: "fulfilled", deliveryStatus: "delivered" });
  });
});

describe("sandbox delivery of gear", () => {
  const stockOf = async (item: string) =>
    (await t.db.execute<{ stock: number }>(sql`SELECT stock FROM gear_items WHERE item = ${item}`)).rows[0]!.stock;

  it("returns the unit to stock when the trade offer is declined and the money goes back", async () => {
    await t.db.execute(
      sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'declined-crate', 'Crate', 5000, 3)`,
    );
    const intentId = await paidGear("declined-crate", "DECLINED");
    expect(await stockOf("declined-crate")).toBe(2);
    await work();
    expect(await read(intentId)).toMatchObject({ status: "refunded", deliveryFailureReason: "trade_offer_declined" });
    expect(await stockOf("declined-crate")).toBe(3);
  });

  it("keeps a delivered unit out of stock even when refunded afterwards", async () => {
    await t.db.execute(
      sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'kept-crate', 'Crate', 5000, 3)`,
    );
    const intentId = await paidGear("kept-crate", "AbCdEf12");
    await work();
    expect(await read(intentId)).toMatchObject({ status: "fulfilled", deliveryStep: "accepted" });
    await refunds.refundIntent(t.db, intentId, {
      by: { kind: "staff", actor: { userId: null, label: "ops@staff.example.com" } },
      note: "goodwill",
      origin: ORIGIN,
    });
    expect(await read(intentId)).toMatchObject({ status: "refunded", refundReason: "operator", deliveryStatus: "delivered" });
    expect(await stockOf("kept-crate")).toBe(2);
  });
});

describe("refunds", () => {
  it("by the partner: once, then the intent's state refuses a second; nobody else's token may", async () => {
    const intentId = await paidGift("NQVGTQPG");
    const refunded = await refunds.refundIntentForOwner(t.db, token, intentId, "customer asked", ORIGIN);
    expect(refunded).toMatchObject({
      status: "refunded",
      refundReason: "partner",
      deliveryStatus: "failed",
      deliveryFailureReason: "refunded_before_delivery",
    });
    expect(refunded.timeline.at(-1)).toMatchObject({ value: "refunded", reason: "partner: customer asked" });
    await expect(refunds.refundIntentForOwner(t.db, token, intentId, undefined, ORIGIN)).rejects.toMatchObject({
      reason: "intent_state_conflict",
    });
    const { partnerAccount } = await import("@/tests/support/partners");
    const strangerId = await partnerAccount(t.db, "stranger@example.com");
    const stranger = await tokens.createApiToken(t.db, { userId: strangerId, name: "s", scopes: ["intents:refund", "intents:read"] });
    const asStranger: AuthToken = { id: stranger.id, userId: strangerId, name: "s", scopes: stranger.scopes, purpose: "api", guest: false };
    await expect(refunds.refundIntentForOwner(t.db, asStranger, intentId, undefined, ORIGIN)).rejects.toMatchObject({
      reason: "intent_not_found",
    });
    // The stopped delivery is never picked up again.
    await work();
    expect(await read(intentId)).toMatchObject({ status: "refunded", deliveryStatus: "failed" });
    expect(await mails(intentId)).toEqual(["receipt", "refunded"]);
  });

  it("refuses an unpaid intent", async () => {
    const { giftVerifyRequestSchema } = await import("@/lib/schemas/gifts");
    const { intentId } = await gifts.verifyGift(
      t.db,
      token,
      giftVerifyRequestSchema.parse({
        item: "620",
        target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
        email: "a@example.com",
        fee: "excluded",
      }),
      ORIGIN,
    );
    const refused = (await refunds
      .refundIntent(t.db, intentId, {
        by: { kind: "staff", actor: { userId: null, label: "ops@staff.example.com" } },
        note: "the buyer asked",
        origin: ORIGIN,
      })
      .catch((e: DomainError) => e)) as DomainError;
    expect(refused).toMatchObject({ reason: "intent_state_conflict", details: { current: "requires_payment", target: "refunded" } });
  });

  it("happen once when many race for one intent", async () => {
    const intentId = await paidGift("NQVGTQPG");
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        refunds.refundIntent(t.db, intentId, {
          by: { kind: "staff", actor: { userId: null, label: "ops@staff.example.com" } },
          note: "the buyer asked",
          origin: ORIGIN,
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const timeline = (await read(intentId)).timeline.filter((e) => e.value === "refunded");
    expect(timeline).toHaveLength(1);
  });
});

describe("the database keeps the refund rules whoever writes", () => {
  it("refuses a refund of an intent never paid, and stamps refunded_at itself", async () => {
    const { giftVerifyRequestSchema } = await import("@/lib/schemas/gifts");
    const { intentId } = await gifts.verifyGift(
      t.db,
      token,
      giftVerifyRequestSchema.parse({
        item: "620",
        target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
        email: "b@example.com",
        fee: "excluded",
      }),
      ORIGIN,
    );
    await expect(
      t.db.execute(sql`UPDATE intents SET status = 'refunded', refund_reason = 'operator' WHERE id = ${intentId}`),
    ).rejects.toMatchObject({
      cause: { code: "GKSTA" },
    });
  });
});
