import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import type { Actor } from "@/lib/services/audit";
import { releaseDelivery, reportManualDelivery, retryDeliveryNow, takeDelivery } from "@/lib/services/delivery";
import { listFulfilmentQueue } from "@/lib/services/fulfilment-queue";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { getIntentForOwner, payIntent } from "@/lib/services/intent-lifecycle";
import { createApiToken, ensureUser, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

// The back office's fulfilment queue (/admin/queue): what it lists and in which order, and the
// delivery operations it calls, each with its audit entry written in the same transaction.

const ORIGIN = "https://store.example.com";
let t: TestDatabase;
let token: AuthToken;
const staff: Actor[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  const userId = await ensureUser(t.db, "admin-queue-partner@example.com");
  const created = await createApiToken(t.db, { userId, name: "partner", scopes: ["gifts:verify", "gear:create", "intents:read"] });
  token = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  for (let i = 0; i < 8; i++) {
    const email = `queue-operator${i}@example.com`;
    staff.push({ userId: await ensureUser(t.db, email), label: email });
  }
  await t.db.execute(
    sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'queue-crate', 'Queue crate', 5000, 5)`,
  );
});
afterAll(() => t?.close());

async function deliveryOf(intentId: string): Promise<string> {
  return (await getIntentForOwner(t.db, token, intentId, ORIGIN)).deliveryId!;
}

async function paidGift(region = "RU"): Promise<{ intentId: string; deliveryId: string }> {
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region },
    email: "queue-buyer@example.com",
    fee: "excluded",
  });
  const { intentId } = await verifyGift(t.db, token, body, ORIGIN);
  await payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: `sbx_${intentId.slice(0, 8)}`, origin: ORIGIN });
  return { intentId, deliveryId: await deliveryOf(intentId) };
}

async function paidGear(): Promise<{ intentId: string; deliveryId: string }> {
  const body = gearIntentRequestSchema.parse({
    account: "76561198000000001",
    platform: "730",
    item: "queue-crate",
    email: "queue-gear@example.com",
    additionalFields: { tradeLink: "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12" },
  });
  const { intentId } = await reserveGear(t.db, token, body, ORIGIN);
  await payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: `sbx_${intentId.slice(0, 8)}`, origin: ORIGIN });
  return { intentId, deliveryId: await deliveryOf(intentId) };
}

async function auditOf(intentId: string) {
  const { rows } = await t.db.execute<{
    actor: string;
    actor_id: string | null;
    action: string;
    before: unknown;
    after: unknown;
    note: string | null;
  }>(
    sql`SELECT actor, actor_id, action, before, after, note FROM audit_log WHERE target_type = 'intent' AND target_id = ${intentId} ORDER BY id`,
  );
  return rows;
}

async function wholeQueue(view: "manual" | "mine" | "free" | "retrying", viewerId = staff[0]!.userId!) {
  return (await listFulfilmentQueue(t.db, { view, viewerId, pageSize: 100 })).entries;
}

describe("the queue's listing", () => {
  it("lists paid manual deliveries oldest payment first, with what the person needs to send each", async () => {
    const first = await paidGift("KZ");
    const second = await paidGear();
    const third = await paidGift();
    const entries = await wholeQueue("manual");
    const ids = entries.map((e) => e.deliveryId);
    expect(ids.indexOf(first.deliveryId)).toBeLessThan(ids.indexOf(second.deliveryId));
    expect(ids.indexOf(second.deliveryId)).toBeLessThan(ids.indexOf(third.deliveryId));
    const paid = entries.map((e) => e.paidAt.getTime());
    expect(paid).toEqual([...paid].sort((a, b) => a - b));

    const gift = entries.find((e) => e.deliveryId === first.deliveryId)!;
    expect(gift).toMatchObject({
      kind: "gift",
      intentId: first.intentId,
      provider: "manual",
      status: "pending",
      step: "queued",
      gameTitle: "Portal 2",
      region: "KZ",
      inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG",
      email: "queue-buyer@example.com",
      assignedTo: null,
    });
    // The invite code fhgc-rdqr names account 893502140.
    expect(gift.recipientSteamId).toBe("76561198853767868");
    expect(gift.edition).toBeTruthy();
    expect(gift.waitedMs).toBeGreaterThanOrEqual(0);

    const gear = entries.find((e) => e.deliveryId === second.deliveryId)!;
    expect(gear).toMatchObject({
      kind: "gear",
      account: "76561198000000001",
      tradeLink: "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12",
      item: "queue-crate",
      itemTitle: "Queue crate",
      appId: 730,
    });
  });

  it("pages in the database and counts the whole queue", async () => {
    for (let i = 0; i < 3; i++) await paidGift();
    const all = await listFulfilmentQueue(t.db, { viewerId: staff[0]!.userId!, pageSize: 100 });
    const page1 = await listFulfilmentQueue(t.db, { viewerId: staff[0]!.userId!, pageSize: 2, page: 1 });
    const page2 = await listFulfilmentQueue(t.db, { viewerId: staff[0]!.userId!, pageSize: 2, page: 2 });
    expect(page1.total).toBe(all.total);
    expect(page1.entries).toHaveLength(2);
    expect([...page1.entries, ...page2.entries].map((e) => e.deliveryId)).toEqual(all.entries.slice(0, 4).map((e) => e.deliveryId));
  });

  it("finds an order by its id or the buyer's e-mail", async () => {
    const gear = await paidGear();
    const byId = await listFulfilmentQueue(t.db, { viewerId: staff[0]!.userId!, search: gear.intentId });
    expect(byId.entries.map((e) => e.intentId)).toEqual([gear.intentId]);
    const byEmail = await listFulfilmentQueue(t.db, { viewerId: staff[0]!.userId!, search: "QUEUE-GEAR@", pageSize: 100 });
    expect(byEmail.entries.map((e) => e.intentId)).toContain(gear.intentId);
    expect(byEmail.entries.every((e) => e.email === "queue-gear@example.com")).toBe(true);
    expect((await listFulfilmentQueue(t.db, { viewerId: staff[0]!.userId!, search: "%" })).total).toBe(0);
  });

  it("shows who took an order; mine and not-taken split the queue; delivered orders leave it", async () => {
    const { intentId, deliveryId } = await paidGift();
    await takeDelivery(t.db, deliveryId, staff[3]!);
    const entry = (await wholeQueue("manual")).find((e) => e.deliveryId === deliveryId)!;
    expect(entry).toMatchObject({ assignedTo: staff[3]!.userId, assigneeEmail: staff[3]!.label, step: "taken" });
    expect((await wholeQueue("mine", staff[3]!.userId!)).map((e) => e.deliveryId)).toContain(deliveryId);
    expect((await wholeQueue("mine", staff[4]!.userId!)).map((e) => e.deliveryId)).not.toContain(deliveryId);
    expect((await wholeQueue("free")).map((e) => e.deliveryId)).not.toContain(deliveryId);

    await reportManualDelivery(t.db, deliveryId, staff[3]!, { outcome: "delivered" }, ORIGIN);
    expect((await wholeQueue("manual")).map((e) => e.deliveryId)).not.toContain(deliveryId);
    expect((await getIntentForOwner(t.db, token, intentId, ORIGIN)).status).toBe("fulfilled");
  });
});

describe("working an order, audited", () => {
  it("records the take with who took it, in the log and the timeline", async () => {
    const { intentId, deliveryId } = await paidGift();
    await takeDelivery(t.db, deliveryId, staff[0]!);
    await takeDelivery(t.db, deliveryId, staff[0]!); // the holder again: nothing changes, nothing recorded
    const entries = await auditOf(intentId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "delivery.take",
      actor: staff[0]!.label,
      actor_id: staff[0]!.userId,
      before: { deliveryId, assignedTo: null, step: "queued" },
      after: { deliveryId, assignedTo: staff[0]!.label, step: "taken" },
    });
    const timeline = (await getIntentForOwner(t.db, token, intentId, ORIGIN)).timeline;
    expect(timeline.find((e) => e.value === "taken")).toBeTruthy();
  });

  it("gives an order to exactly one of eight people taking it at once, and logs only that take", async () => {
    const { intentId, deliveryId } = await paidGift();
    const results = await Promise.allSettled(staff.map((s) => takeDelivery(t.db, deliveryId, s)));
    const won = results.flatMap((r, i) => (r.status === "fulfilled" ? [staff[i]!] : []));
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ reason: "delivery_taken" });
    const entries = await auditOf(intentId);
    expect(entries.map((e) => [e.action, e.actor])).toEqual([["delivery.take", won[0]!.label]]);
  });

  it("records each report: a step sent, then delivered, with before and after", async () => {
    const { intentId, deliveryId } = await paidGift();
    await takeDelivery(t.db, deliveryId, staff[1]!);
    await expect(reportManualDelivery(t.db, deliveryId, staff[2]!, { outcome: "delivered" }, ORIGIN)).rejects.toMatchObject({
      reason: "delivery_not_taken",
    });
    await reportManualDelivery(t.db, deliveryId, staff[1]!, { outcome: "sent", step: "friend_request_sent" }, ORIGIN);
    await reportManualDelivery(t.db, deliveryId, staff[1]!, { outcome: "delivered" }, ORIGIN);
    const entries = await auditOf(intentId);
    expect(entries.map((e) => [e.action, e.actor, e.note])).toEqual([
      ["delivery.take", staff[1]!.label, null],
      ["delivery.report", staff[1]!.label, "friend_request_sent"],
      ["delivery.report", staff[1]!.label, "delivered"],
    ]);
    expect(entries[1]).toMatchObject({
      before: { status: "pending", step: "taken" },
      after: { status: "pending", step: "friend_request_sent", failureReason: null },
    });
    expect(entries[2]).toMatchObject({ after: { status: "delivered", step: "accepted" } });
  });

  it("records a failure with its reason; the order is refunded", async () => {
    const { intentId, deliveryId } = await paidGear();
    await takeDelivery(t.db, deliveryId, staff[2]!);
    await reportManualDelivery(t.db, deliveryId, staff[2]!, { outcome: "failed", reason: "trade_link_invalid" }, ORIGIN);
    const report = (await auditOf(intentId)).at(-1)!;
    expect(report).toMatchObject({
      action: "delivery.report",
      note: "trade_link_invalid",
      after: { status: "failed", failureReason: "trade_link_invalid" },
    });
    expect(await getIntentForOwner(t.db, token, intentId, ORIGIN)).toMatchObject({ status: "refunded", deliveryStatus: "failed" });
  });

  it("lets the holder give an order back, audited; then anyone may take it", async () => {
    const { intentId, deliveryId } = await paidGift();
    await takeDelivery(t.db, deliveryId, staff[5]!);
    await expect(releaseDelivery(t.db, deliveryId, staff[6]!)).rejects.toMatchObject({ reason: "delivery_not_taken" });
    await releaseDelivery(t.db, deliveryId, staff[5]!);
    expect((await wholeQueue("free")).find((e) => e.deliveryId === deliveryId)).toMatchObject({ step: "queued", assignedTo: null });
    await takeDelivery(t.db, deliveryId, staff[6]!);
    expect((await auditOf(intentId)).map((e) => [e.action, e.actor])).toEqual([
      ["delivery.take", staff[5]!.label],
      ["delivery.release", staff[5]!.label],
      ["delivery.take", staff[6]!.label],
    ]);
  });

  it("retries an automatic delivery now, audited, and lists it among the retrying; a manual one cannot be", async () => {
    const { intentId, deliveryId } = await paidGift();
    await expect(retryDeliveryNow(t.db, deliveryId, staff[0]!)).rejects.toMatchObject({ reason: "delivery_closed" });
    // As the sandbox bot leaves a delivery after a failed attempt: retrying, due in an hour.
    await t.db.execute(
      sql`UPDATE deliveries SET provider = 'sandbox', status = 'retrying', attempt_count = 1, next_attempt_at = now() + interval '1 hour' WHERE id = ${deliveryId}`,
    );
    expect((await wholeQueue("retrying")).map((e) => e.deliveryId)).toContain(deliveryId);
    expect((await wholeQueue("manual")).map((e) => e.deliveryId)).not.toContain(deliveryId);
    await retryDeliveryNow(t.db, deliveryId, staff[0]!);
    const { rows } = await t.db.execute<{ due: boolean }>(
      sql`SELECT next_attempt_at <= now() AS due FROM deliveries WHERE id = ${deliveryId}`,
    );
    expect(rows[0]!.due).toBe(true);
    expect(await auditOf(intentId)).toEqual([
      expect.objectContaining({
        action: "delivery.retry",
        actor: staff[0]!.label,
        before: expect.objectContaining({ status: "retrying" }),
      }),
    ]);
  });

  it("still accepts a bare user id (scripts): the timeline and the log name the person by e-mail", async () => {
    const { intentId, deliveryId } = await paidGift();
    await takeDelivery(t.db, deliveryId, staff[7]!.userId!);
    expect(await auditOf(intentId)).toEqual([expect.objectContaining({ action: "delivery.take", actor: staff[7]!.label })]);
  });
});
