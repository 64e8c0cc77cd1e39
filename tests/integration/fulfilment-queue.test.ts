import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { claimDueDeliveries, reportManualDelivery, takeDelivery } from "@/lib/services/delivery";
import { verifyGift } from "@/lib/services/gifts";
import { getIntentForOwner, payIntent } from "@/lib/services/intent-lifecycle";
import { createApiToken, ensureUser, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

// Manual delivery (the default provider): a paid order waits in the queue; the worker leaves it
// alone; one person takes it, and only they can say it was sent, delivered or failed.

const ORIGIN = "https://store.example.com";
let t: TestDatabase;
let token: AuthToken;
const staff: string[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  const userId = await ensureUser(t.db, "queue-partner@example.com");
  const created = await createApiToken(t.db, { userId, name: "partner", scopes: ["gifts:verify", "intents:read"] });
  token = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  for (let i = 0; i < 8; i++) staff.push(await ensureUser(t.db, `operator${i}@example.com`));
});
afterAll(() => t?.close());

async function paidGift(): Promise<{ intentId: string; deliveryId: string }> {
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
    email: "queue@example.com",
    fee: "excluded",
  });
  const { intentId } = await verifyGift(t.db, token, body, ORIGIN);
  await payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: `sbx_${intentId.slice(0, 8)}`, origin: ORIGIN });
  const intent = await getIntentForOwner(t.db, token, intentId, ORIGIN);
  return { intentId, deliveryId: intent.deliveryId! };
}

describe("the fulfilment queue", () => {
  it("keeps a paid order pending for people; the worker never claims it", async () => {
    const { intentId, deliveryId } = await paidGift();
    expect(await getIntentForOwner(t.db, token, intentId, ORIGIN)).toMatchObject({ deliveryStatus: "pending", deliveryStep: "queued" });
    expect((await claimDueDeliveries(t.db, 100, 60_000)).map((d) => d.id)).not.toContain(deliveryId);
  });

  it("gives an order to exactly one of eight people taking it at once", async () => {
    const { deliveryId } = await paidGift();
    const results = await Promise.allSettled(staff.map((s) => takeDelivery(t.db, deliveryId, s)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    for (const err of refused) expect(err).toMatchObject({ reason: "delivery_taken" });
  });

  it("lets only the taker report: sent, then delivered fulfils the intent, with who did it in the timeline", async () => {
    const { intentId, deliveryId } = await paidGift();
    await expect(reportManualDelivery(t.db, deliveryId, staff[0]!, { outcome: "delivered" }, ORIGIN)).rejects.toMatchObject({
      reason: "delivery_not_taken",
    });
    await takeDelivery(t.db, deliveryId, staff[0]!);
    await expect(reportManualDelivery(t.db, deliveryId, staff[1]!, { outcome: "delivered" }, ORIGIN)).rejects.toMatchObject({
      reason: "delivery_not_taken",
    });
    await reportManualDelivery(t.db, deliveryId, staff[0]!, { outcome: "sent", step: "gift_sent" }, ORIGIN);
    await reportManualDelivery(t.db, deliveryId, staff[0]!, { outcome: "delivered" }, ORIGIN);
    const done = await getIntentForOwner(t.db, token, intentId, ORIGIN);
    expect(done).toMatchObject({ status: "fulfilled", deliveryStatus: "delivered" });
    expect(done.timeline.filter((e) => e.kind === "delivery").map((e) => e.value)).toEqual(["queued", "taken", "gift_sent", "accepted"]);
    await expect(reportManualDelivery(t.db, deliveryId, staff[0]!, { outcome: "delivered" }, ORIGIN)).rejects.toMatchObject({
      reason: "delivery_closed",
    });
  });

  it("refunds an order a person marks failed, with the reason they gave", async () => {
    const { intentId, deliveryId } = await paidGift();
    await takeDelivery(t.db, deliveryId, staff[2]!);
    await reportManualDelivery(t.db, deliveryId, staff[2]!, { outcome: "failed", reason: "invite_link_invalid" }, ORIGIN);
    expect(await getIntentForOwner(t.db, token, intentId, ORIGIN)).toMatchObject({
      status: "refunded",
      refundReason: "delivery_failed",
      deliveryStatus: "failed",
      deliveryFailureReason: "invite_link_invalid",
    });
  });
});
