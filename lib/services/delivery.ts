import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, DbExecutor, Transaction } from "@/lib/db/client";
import { deliveries, deliveryAttempts, gearItems, intentEvents, intents, users } from "@/lib/db/schema";
import { deliveryProvider, deliveryProviderById } from "@/lib/delivery";
import type { DeliveryJob, DeliveryProgress } from "@/lib/delivery/provider";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import type { DeliveryFailure, DeliveryStatus, DeliveryStep } from "@/lib/intents/states";
import { log } from "@/lib/log";
import { parseRetrySchedule } from "@/lib/webhooks/schedule";
import { recordAudit, type Actor } from "./audit";
import { fulfilIntent, recordDeliveryFailed } from "./intent-lifecycle";
import { refundIntent } from "./refunds";

// A paid order's way to its recipient. Every state lives here, in the database: a delivery row is
// made in the payment's transaction; the worker claims due ones with a lease (SKIP LOCKED), asks
// the provider to advance, and records the answer, the attempt and the timeline entry in one
// transaction; a crashed worker's lease runs out and another takes the delivery over. Delivered
// moves the intent to fulfilled; a failure with retries spent, or one that no retry can mend, is
// refunded. Manual deliveries wait for people (the fulfilment queue's operations below).

const RETRIES = parseRetrySchedule(env.DELIVERY_RETRY_SCHEDULE) ?? [];
const OPEN: DeliveryStatus[] = ["created", "pending", "retrying"];

/** Made in the payment's transaction, with the configured provider: the worker or a person takes it from here. */
export async function createDelivery(tx: DbExecutor, intentId: string): Promise<string> {
  const provider = deliveryProvider();
  const [row] = await tx
    .insert(deliveries)
    .values({ intentId, provider: provider.id, status: provider.automatic ? "created" : "pending" })
    .returning({ id: deliveries.id });
  if (!row) throw new Error("the delivery was not recorded");
  await recordStep(tx, intentId, "queued", provider.automatic ? null : "manual");
  return row.id;
}

async function recordStep(
  tx: DbExecutor,
  intentId: string,
  value: string,
  reason: string | null,
  actor: string | null = null,
): Promise<void> {
  await tx.insert(intentEvents).values({ intentId, kind: "delivery", value, reason, actor });
}

export interface ClaimedDelivery {
  id: string;
  intentId: string;
  provider: string;
  attempt: number;
  step: DeliveryStep;
  lockedUntil: Date;
}

/** Due automatic deliveries, leased to this worker for `leaseMs`; rows another worker holds are skipped. */
export async function claimDueDeliveries(db: Database, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { rows } = await db.execute<{
    id: string;
    intent_id: string;
    provider: string;
    attempt_count: number;
    step: DeliveryStep;
    locked_until: Date;
  }>(sql`
    UPDATE deliveries SET locked_until = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE id IN (
      SELECT id FROM deliveries
      WHERE status IN ('created', 'pending', 'retrying') AND provider <> 'manual'
        AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now())
      ORDER BY next_attempt_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, intent_id, provider, attempt_count, step, locked_until`);
  return rows.map((r) => ({
    id: r.id,
    intentId: r.intent_id,
    provider: r.provider,
    attempt: Number(r.attempt_count),
    step: r.step,
    lockedUntil: new Date(r.locked_until),
  }));
}

async function jobFor(db: DbExecutor, claimed: Pick<ClaimedDelivery, "id" | "intentId" | "attempt" | "step">): Promise<DeliveryJob> {
  const [row] = await db
    .select({
      kind: intents.kind,
      appId: intents.appId,
      packageId: intents.packageId,
      region: intents.giftRegion,
      inviteUrl: intents.inviteUrl,
      item: gearItems.item,
      account: intents.account,
      tradeLink: intents.tradeLink,
    })
    .from(intents)
    .leftJoin(gearItems, eq(gearItems.id, intents.gearItemId))
    .where(eq(intents.id, claimed.intentId));
  if (!row) throw new Error(`intent ${claimed.intentId} of delivery ${claimed.id} is gone`);
  return {
    deliveryId: claimed.id,
    intentId: claimed.intentId,
    kind: row.kind,
    attempt: claimed.attempt,
    step: claimed.step,
    gift: row.kind === "gift" ? { appId: row.appId, packageId: row.packageId!, region: row.region!, inviteUrl: row.inviteUrl! } : null,
    gear: row.kind === "gear" ? { platform: row.appId, item: row.item!, account: row.account!, tradeLink: row.tradeLink } : null,
  };
}

/**
 * One attempt at a claimed delivery: ask its provider, then record the answer under the lease. If
 * the lease was lost meanwhile (this worker stalled past it and another took over), nothing is
 * recorded: the other worker's attempt stands.
 */
export async function attemptDelivery(db: Database, claimed: ClaimedDelivery, origin: string): Promise<DeliveryProgress | null> {
  const provider = deliveryProviderById(claimed.provider);
  if (!provider?.automatic) throw new Error(`delivery ${claimed.id} has no automatic provider (${claimed.provider})`);
  const startedAt = new Date();
  let progress: DeliveryProgress;
  try {
    progress = await provider.advance(await jobFor(db, claimed));
  } catch (err) {
    log.warn(
      { area: "delivery", deliveryId: claimed.id, error: err instanceof Error ? err.message : String(err) },
      "delivery attempt failed",
    );
    progress = { outcome: "failed", reason: "provider_error", retryable: true };
  }
  const recorded = await db.transaction(async (tx) => {
    const [held] = await tx
      .select({ status: deliveries.status, lockedUntil: deliveries.lockedUntil })
      .from(deliveries)
      .where(eq(deliveries.id, claimed.id))
      .for("update");
    if (!held || !OPEN.includes(held.status) || held.lockedUntil?.getTime() !== claimed.lockedUntil.getTime()) return false;
    await applyProgress(tx, claimed, progress, { startedAt, actor: provider.id, origin });
    return true;
  });
  return recorded ? progress : null;
}

interface Applied {
  startedAt: Date;
  actor: string;
  origin: string;
}

async function applyProgress(
  tx: Transaction,
  d: Pick<ClaimedDelivery, "id" | "intentId" | "attempt">,
  progress: DeliveryProgress,
  how: Applied,
) {
  const attempt = d.attempt + 1;
  const base = { attemptCount: attempt, lockedUntil: null, updatedAt: sql`now()` };
  if (progress.outcome === "progress") {
    await tx
      .update(deliveries)
      .set({
        ...base,
        status: "pending",
        step: progress.step,
        nextAttemptAt: sql`now() + make_interval(secs => ${progress.checkAgainInMs / 1000})`,
      })
      .where(eq(deliveries.id, d.id));
    await tx
      .insert(deliveryAttempts)
      .values({ deliveryId: d.id, attempt, startedAt: how.startedAt, outcome: "progress", step: progress.step, actor: how.actor });
    await recordStep(tx, d.intentId, progress.step, null, how.actor);
    return;
  }
  if (progress.outcome === "delivered") {
    await tx
      .update(deliveries)
      .set({ ...base, status: "delivered", step: "accepted", finishedAt: sql`now()` })
      .where(eq(deliveries.id, d.id));
    await tx
      .insert(deliveryAttempts)
      .values({ deliveryId: d.id, attempt, startedAt: how.startedAt, outcome: "delivered", step: "accepted", actor: how.actor });
    await recordStep(tx, d.intentId, "accepted", null, how.actor);
    await fulfilIntent(tx, d.intentId, how.origin, how.actor);
    return;
  }
  // Failed: try again on the schedule while it may help, else for good, and the money goes back.
  const retryIn = progress.retryable ? RETRIES[await retriesSoFar(tx, d.id)] : undefined;
  if (retryIn !== undefined) {
    await tx
      .update(deliveries)
      .set({ ...base, status: "retrying", nextAttemptAt: sql`now() + make_interval(secs => ${retryIn / 1000})` })
      .where(eq(deliveries.id, d.id));
    await tx
      .insert(deliveryAttempts)
      .values({ deliveryId: d.id, attempt, startedAt: how.startedAt, outcome: "retry", failureReason: progress.reason, actor: how.actor });
    await recordStep(tx, d.intentId, "retrying", progress.reason, how.actor);
    return;
  }
  await failAndRefund(tx, d, progress.reason, how);
}

async function retriesSoFar(tx: DbExecutor, deliveryId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(deliveryAttempts)
    .where(and(eq(deliveryAttempts.deliveryId, deliveryId), eq(deliveryAttempts.outcome, "retry")));
  return row?.n ?? 0;
}

async function failAndRefund(
  tx: Transaction,
  d: Pick<ClaimedDelivery, "id" | "intentId" | "attempt">,
  reason: DeliveryFailure,
  how: Applied,
) {
  const attempt = d.attempt + 1;
  await tx
    .update(deliveries)
    .set({
      attemptCount: attempt,
      lockedUntil: null,
      updatedAt: sql`now()`,
      status: "failed",
      failureReason: reason,
      finishedAt: sql`now()`,
    })
    .where(eq(deliveries.id, d.id));
  await tx
    .insert(deliveryAttempts)
    .values({ deliveryId: d.id, attempt, startedAt: how.startedAt, outcome: "failed", failureReason: reason, actor: how.actor });
  await recordStep(tx, d.intentId, "failed", reason, how.actor);
  // Announced before the refund, so its body shows the failed delivery on a still-paid intent.
  await recordDeliveryFailed(tx, d.intentId, how.origin);
  await refundIntent(tx, d.intentId, { by: { kind: "delivery_failed", label: how.actor }, note: reason, origin: how.origin });
}

// The fulfilment queue (manual deliveries): people take an order, send it, and say how it went.
// Each operation locks the delivery, checks it is open (and, once taken, theirs), and records the
// attempt and the timeline entry with the person's e-mail.

async function lockOpenDelivery(tx: Transaction, deliveryId: string) {
  const [row] = await tx
    .select({
      id: deliveries.id,
      intentId: deliveries.intentId,
      status: deliveries.status,
      attempt: deliveries.attemptCount,
      step: deliveries.step,
      assignedTo: deliveries.assignedTo,
    })
    .from(deliveries)
    .where(eq(deliveries.id, deliveryId))
    .for("update");
  if (!row) throw new DomainError("delivery_not_found", { deliveryId });
  if (!OPEN.includes(row.status)) throw new DomainError("delivery_closed", { deliveryId, status: row.status });
  return row;
}

/**
 * The person working a delivery, as the audit log names them. A bare user id (scripts, older
 * callers) is looked up for its e-mail, which the timeline shows as the actor.
 */
async function resolveWorker(tx: DbExecutor, by: Actor | string): Promise<{ userId: string; actor: Actor }> {
  if (typeof by !== "string") {
    if (!by.userId) throw new Error("a manual delivery is worked by a person, not the CLI");
    return { userId: by.userId, actor: by };
  }
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, by));
  return { userId: by, actor: { userId: by, label: row?.email ?? by } };
}

/**
 * Takes an open delivery for one person, so two never work one order: the row lock makes the
 * second of two simultaneous takers see the first's name (409 delivery_taken). Taking it again
 * is a no-op for its holder.
 */
export function takeDelivery(db: Database, deliveryId: string, by: Actor | string): Promise<void> {
  return db.transaction(async (tx) => {
    const row = await lockOpenDelivery(tx, deliveryId);
    const { userId, actor } = await resolveWorker(tx, by);
    if (row.assignedTo === userId) return;
    if (row.assignedTo) throw new DomainError("delivery_taken", { deliveryId });
    await tx
      .update(deliveries)
      .set({ assignedTo: userId, assignedAt: sql`now()`, updatedAt: sql`now()`, step: "taken" })
      .where(eq(deliveries.id, deliveryId));
    await recordStep(tx, row.intentId, "taken", null, actor.label);
    await recordAudit(tx, actor, {
      action: "delivery.take",
      targetType: "intent",
      targetId: row.intentId,
      before: { deliveryId, assignedTo: null, step: row.step },
      after: { deliveryId, assignedTo: actor.label, step: "taken" },
    });
  });
}

/**
 * The holder gives a taken delivery back to the queue (a shift ends, they cannot reach the
 * recipient): anyone may take it then. A step already sent stays; only "taken" goes back to queued.
 */
export function releaseDelivery(db: Database, deliveryId: string, by: Actor | string): Promise<void> {
  return db.transaction(async (tx) => {
    const row = await lockOpenDelivery(tx, deliveryId);
    const { userId, actor } = await resolveWorker(tx, by);
    if (row.assignedTo !== userId) throw new DomainError("delivery_not_taken", { deliveryId });
    const step = row.step === "taken" ? "queued" : row.step;
    await tx
      .update(deliveries)
      .set({ assignedTo: null, assignedAt: null, updatedAt: sql`now()`, step })
      .where(eq(deliveries.id, deliveryId));
    // The shopper reads it as queued for a person again, as when the order was paid.
    if (step !== row.step) await recordStep(tx, row.intentId, "queued", "manual", actor.label);
    await recordAudit(tx, actor, {
      action: "delivery.release",
      targetType: "intent",
      targetId: row.intentId,
      before: { deliveryId, assignedTo: actor.label, step: row.step },
      after: { deliveryId, assignedTo: null, step },
    });
  });
}

export type ManualOutcome =
  | { outcome: "sent"; step: Extract<DeliveryStep, "friend_request_sent" | "gift_sent" | "trade_offer_sent"> }
  | { outcome: "delivered" }
  | { outcome: "failed"; reason: DeliveryFailure };

/** A person reports on a delivery they took: a step sent, delivered (the intent is fulfilled), or failed (the money goes back). */
export function reportManualDelivery(
  db: Database,
  deliveryId: string,
  by: Actor | string,
  report: ManualOutcome,
  origin: string,
): Promise<void> {
  return db.transaction(async (tx) => {
    const row = await lockOpenDelivery(tx, deliveryId);
    const { userId, actor } = await resolveWorker(tx, by);
    if (row.assignedTo !== userId) throw new DomainError("delivery_not_taken", { deliveryId });
    const how = { startedAt: new Date(), actor: actor.label, origin };
    const progress: DeliveryProgress =
      report.outcome === "sent"
        ? { outcome: "progress", step: report.step, checkAgainInMs: 0 }
        : report.outcome === "delivered"
          ? { outcome: "delivered" }
          : { outcome: "failed", reason: report.reason, retryable: false };
    await applyProgress(tx, { id: row.id, intentId: row.intentId, attempt: row.attempt }, progress, how);
    const [after] = await tx
      .select({ status: deliveries.status, step: deliveries.step, failureReason: deliveries.failureReason })
      .from(deliveries)
      .where(eq(deliveries.id, deliveryId));
    await recordAudit(tx, actor, {
      action: "delivery.report",
      targetType: "intent",
      targetId: row.intentId,
      before: { deliveryId, status: row.status, step: row.step },
      after: { deliveryId, ...after },
      note: report.outcome === "failed" ? report.reason : report.outcome === "sent" ? report.step : "delivered",
    });
  });
}

/** Try a retrying (or stuck) automatic delivery now instead of at its scheduled time. */
export function retryDeliveryNow(db: Database, deliveryId: string, actor: Actor): Promise<void> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        intentId: deliveries.intentId,
        status: deliveries.status,
        provider: deliveries.provider,
        nextAttemptAt: deliveries.nextAttemptAt,
      })
      .from(deliveries)
      .where(eq(deliveries.id, deliveryId))
      .for("update");
    if (!row) throw new DomainError("delivery_not_found", { deliveryId });
    if (!OPEN.includes(row.status) || row.provider === "manual")
      throw new DomainError("delivery_closed", { deliveryId, status: row.provider === "manual" ? "manual" : row.status });
    await tx
      .update(deliveries)
      .set({ nextAttemptAt: sql`now()`, lockedUntil: null, updatedAt: sql`now()` })
      .where(eq(deliveries.id, deliveryId));
    await recordAudit(tx, actor, {
      action: "delivery.retry",
      targetType: "intent",
      targetId: row.intentId,
      before: { deliveryId, status: row.status, nextAttemptAt: row.nextAttemptAt },
      after: { deliveryId, status: row.status, nextAttemptAt: "now" },
    });
  });
}

/** A refund before delivery stops the delivery: nothing is sent for money that went back. */
export async function stopOpenDelivery(tx: DbExecutor, intentId: string, actor?: string): Promise<void> {
  const stopped = await tx
    .update(deliveries)
    .set({ status: "failed", failureReason: "refunded_before_delivery", finishedAt: sql`now()`, lockedUntil: null, updatedAt: sql`now()` })
    .where(and(eq(deliveries.intentId, intentId), inArray(deliveries.status, OPEN)))
    .returning({ id: deliveries.id });
  if (stopped.length > 0) await recordStep(tx, intentId, "failed", "refunded_before_delivery", actor ?? null);
}
