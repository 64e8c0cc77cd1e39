import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, deliveries, intents } from "@/lib/db/schema";
import { isDomainError } from "@/lib/errors";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { refundOrder } from "@/lib/services/admin-orders";
import type { Actor } from "@/lib/services/audit";
import { reportManualDelivery, takeDelivery } from "@/lib/services/delivery";
import { verifyGift } from "@/lib/services/gifts";
import { cancelIntent, payIntent } from "@/lib/services/intent-lifecycle";
import { refundIntent, refundIntentForOwner } from "@/lib/services/refunds";
import { createApiToken, ensureUser, hashToken, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerAccount } from "@/tests/support/partners";

// Who may give an order's money back, and when (lib/intents/refund-policy.ts), asked by every path
// against real PostgreSQL: a partner through the API until the order is delivered, never a shopper's
// own token, staff with a written reason before and after delivery, the delivery worker when a
// delivery fails. Each state of an intent and its delivery, against each of them.

const ORIGIN = "https://store.example.com";
let t: TestDatabase;
let partner: AuthToken;
let shopper: AuthToken;
let staff: Actor;

beforeAll(async () => {
  t = await createTestDatabase();
  const userId = await partnerAccount(t.db, "refund-partner@example.com");
  const created = await createApiToken(t.db, { userId, name: "partner", scopes: ["gifts:verify", "intents:read", "intents:refund"] });
  partner = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  shopper = await oldShopperToken("refund-shopper@example.com");
  const staffId = await ensureUser(t.db, "ops@staff.example.com");
  staff = { userId: staffId, label: "ops@staff.example.com" };
});
afterAll(() => t?.close());

/**
 * A token with intents:refund that a shopper made on the account page before the scope became
 * partners' only: written as it was then, since no service makes one now.
 */
async function oldShopperToken(email: string): Promise<AuthToken> {
  const userId = await ensureUser(t.db, email);
  const secret = `gk_live_${"s".repeat(39)}${Math.random().toString(36).slice(2, 6).padEnd(4, "x")}`;
  const { rows } = await t.db.execute<{ id: string }>(sql`INSERT INTO api_tokens (user_id, name, prefix, token_hash, scopes)
    VALUES (${userId}, 'my shop', 'gk_live_ssss', ${hashToken(secret)}, ARRAY['gifts:verify', 'intents:read', 'intents:refund'])
    RETURNING id`);
  return {
    id: rows[0]!.id,
    userId,
    name: "my shop",
    scopes: ["gifts:verify", "intents:read", "intents:refund"],
    purpose: "api",
    guest: false,
  };
}

async function gift(token: AuthToken): Promise<string> {
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
    email: "buyer@example.com",
    fee: "excluded",
  });
  return (await verifyGift(t.db, token, body, ORIGIN)).intentId;
}

const pay = (intentId: string) =>
  payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: `sbx_${intentId.slice(0, 8)}`, origin: ORIGIN });

async function deliveryOf(intentId: string) {
  const [row] = await t.db.select().from(deliveries).where(eq(deliveries.intentId, intentId));
  return row!;
}

/** An operator takes the manual delivery and marks it delivered, as on the fulfilment queue. */
async function deliver(intentId: string): Promise<void> {
  const { id } = await deliveryOf(intentId);
  await takeDelivery(t.db, id, staff);
  await reportManualDelivery(t.db, id, staff, { outcome: "delivered" }, ORIGIN);
}

type State = "unpaid" | "paid, queued" | "paid, retrying" | "delivered" | "refunded" | "canceled" | "expired";

/** An intent of `token`'s owner in `state`, moved there by the services (retrying and expiry set in SQL). */
async function intentIn(state: State, token: AuthToken): Promise<string> {
  const id = await gift(token);
  if (state === "unpaid") return id;
  if (state === "canceled") return (await cancelIntent(t.db, id, ORIGIN), id);
  if (state === "expired") {
    await t.db.execute(sql`UPDATE intents SET expires_at = now() - interval '1 second' WHERE id = ${id}`);
    return id;
  }
  await pay(id);
  if (state === "paid, retrying") await t.db.update(deliveries).set({ status: "retrying" }).where(eq(deliveries.intentId, id));
  if (state === "delivered") await deliver(id);
  if (state === "refunded")
    await refundIntent(t.db, id, { by: { kind: "delivery_failed", label: "manual" }, note: "gift_declined", origin: ORIGIN });
  return id;
}

type Asker = "partner" | "shopper's old token" | "staff with a reason" | "staff without one" | "delivery worker";

async function ask(asker: Asker, intentId: string): Promise<string> {
  try {
    if (asker === "partner") await refundIntentForOwner(t.db, partner, intentId, undefined, ORIGIN);
    else if (asker === "shopper's old token") await refundIntentForOwner(t.db, shopper, intentId, "keeping it", ORIGIN);
    else if (asker === "staff with a reason") await refundOrder(t.db, staff, { intentId, note: "the friend never got it" }, ORIGIN);
    else if (asker === "staff without one")
      await refundIntent(t.db, intentId, { by: { kind: "staff", actor: staff }, note: "  ", origin: ORIGIN });
    else await refundIntent(t.db, intentId, { by: { kind: "delivery_failed", label: "sandbox" }, note: "gift_declined", origin: ORIGIN });
    return "refunded";
  } catch (err) {
    if (isDomainError(err)) return err.reason;
    throw err;
  }
}

const ASKERS: Asker[] = ["partner", "shopper's old token", "staff with a reason", "staff without one", "delivery worker"];

/** What each asker gets, in ASKERS' order. */
const TABLE: [State, string[]][] = [
  ["unpaid", ["intent_state_conflict", "partner_required", "intent_state_conflict", "intent_state_conflict", "intent_state_conflict"]],
  ["paid, queued", ["refunded", "partner_required", "refunded", "invalid_field", "refunded"]],
  ["paid, retrying", ["refunded", "partner_required", "refunded", "invalid_field", "refunded"]],
  ["delivered", ["intent_already_delivered", "partner_required", "refunded", "invalid_field", "intent_already_delivered"]],
  ["refunded", ["intent_state_conflict", "partner_required", "intent_state_conflict", "intent_state_conflict", "intent_state_conflict"]],
  ["canceled", ["intent_state_conflict", "partner_required", "intent_state_conflict", "intent_state_conflict", "intent_state_conflict"]],
  ["expired", ["intent_state_conflict", "partner_required", "intent_state_conflict", "intent_state_conflict", "intent_state_conflict"]],
];

describe("the refund policy, every state against every asker", () => {
  for (const [state, expected] of TABLE) {
    for (const [i, asker] of ASKERS.entries()) {
      it(`${state}: ${asker} -> ${expected[i]}`, async () => {
        const intentId = await intentIn(state, asker === "shopper's old token" ? shopper : partner);
        const before = await t.db.select({ status: intents.status }).from(intents).where(eq(intents.id, intentId));
        const outcome = await ask(asker, intentId);
        expect(outcome).toBe(expected[i]);
        const [after] = await t.db.select({ status: intents.status }).from(intents).where(eq(intents.id, intentId));
        if (outcome !== "refunded") expect(after).toEqual(before[0]);
        if (state === "delivered") expect((await deliveryOf(intentId)).status).toBe("delivered");
      });
    }
  }
});

describe("refunds after delivery", () => {
  it("staff give a delivered order's money back with their reason in the audit log; the delivery stays delivered", async () => {
    const intentId = await intentIn("delivered", partner);
    expect(await refundOrder(t.db, staff, { intentId, note: "wrong region, goodwill" }, ORIGIN)).toEqual({ status: "refunded" });
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.targetId} = ${intentId} AND ${auditLog.action} = 'order.refund'`);
    expect(entries).toMatchObject([
      {
        actor: staff.label,
        actorId: staff.userId,
        note: "wrong region, goodwill",
        before: { status: "fulfilled" },
        after: { status: "refunded" },
      },
    ]);
    expect((await deliveryOf(intentId)).status).toBe("delivered");
  });

  it("a delivery and a partner's refund racing for one order give one of them, never both", async () => {
    const orders = await Promise.all(Array.from({ length: 12 }, () => intentIn("paid, queued", partner)));
    for (const intentId of orders) await takeDelivery(t.db, (await deliveryOf(intentId)).id, staff);
    const outcomes = await Promise.all(
      orders.map(async (intentId) => {
        const { id } = await deliveryOf(intentId);
        const [delivered, refunded] = await Promise.allSettled([
          reportManualDelivery(t.db, id, staff, { outcome: "delivered" }, ORIGIN),
          refundIntentForOwner(t.db, partner, intentId, undefined, ORIGIN),
        ]);
        const reasonOf = (r: PromiseSettledResult<unknown>) =>
          r.status === "fulfilled" ? "ok" : isDomainError(r.reason) ? r.reason.reason : `error: ${String(r.reason)}`;
        const [intent] = await t.db.select({ status: intents.status }).from(intents).where(eq(intents.id, intentId));
        return {
          delivery: reasonOf(delivered),
          refund: reasonOf(refunded),
          intent: intent!.status,
          deliveryStatus: (await deliveryOf(intentId)).status,
        };
      }),
    );
    for (const o of outcomes) {
      expect([
        { delivery: "ok", refund: "intent_already_delivered", intent: "fulfilled", deliveryStatus: "delivered" },
        { delivery: "delivery_closed", refund: "ok", intent: "refunded", deliveryStatus: "failed" },
      ]).toContainEqual(o);
    }
  });
});
