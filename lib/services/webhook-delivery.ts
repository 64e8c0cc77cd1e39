import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { users, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { parseAllowHosts, postCallback, type OutboundOptions, type OutboundResult } from "@/lib/webhooks/outbound";
import { parseRetrySchedule } from "@/lib/webhooks/schedule";
import { webhookHeaders, webhookMessageId } from "@/lib/webhooks/signature";
import { getOrCreateWebhookSecret } from "./webhook-secrets";

export interface DeliveryConfig {
  /** Delay before each retry; the attempt after the last one is the final one. */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  maxResponseBytes: number;
  allowHosts: ReadonlySet<string>;
  /** How long a claim keeps other workers off a row; longer than any attempt can take. */
  leaseMs: number;
  resolve?: OutboundOptions["resolve"];
}

export function deliveryConfigFromEnv(): DeliveryConfig {
  return {
    retryDelaysMs: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE) ?? [],
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: env.WEBHOOK_MAX_RESPONSE_BYTES,
    allowHosts: parseAllowHosts(env.WEBHOOK_ALLOW_HOSTS),
    leaseMs: leaseFor(env.WEBHOOK_TIMEOUT_MS),
  };
}

/**
 * An attempt ends within its timeout (DNS included); the rest covers recording it. A lease that
 * ran out under a live attempt would let a second instance send the same message again.
 */
export function leaseFor(timeoutMs: number): number {
  return 2 * timeoutMs + 5_000;
}

export interface ClaimedDelivery {
  id: string;
  userId: string;
  url: string;
  body: string;
  attemptCount: number;
  /** The lease this claim holds; recording the outcome requires it to be unchanged. */
  lockedUntil: Date;
  /** The endpoint's own secret, else the owner's (null until first created). */
  secret: string | null;
  /** What `webhook-id` is made of: the delivery's id, or for a resend the original's, so a receiver dedupes them alike. */
  messageId: string;
}

/**
 * Leases up to `limit` due deliveries to the caller. `FOR UPDATE SKIP LOCKED` lets instances
 * claim side by side without waiting on each other, and the lease keeps a row claimed after this
 * statement commits, while it is being sent; one whose lease ran out (its instance died
 * mid-attempt) is due again. Truncated to milliseconds so the lease survives a round trip
 * through a JavaScript Date and can serve as the claim's fencing token. A disabled endpoint's
 * deliveries wait, pending, until it is enabled again.
 */
export async function claimDueDeliveries(db: Database, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const { rows } = await db.execute<{
    id: string;
    user_id: string;
    url: string;
    body: string;
    attempt_count: number;
    locked_until: Date | string;
    secret: string | null;
    message_id: string;
  }>(sql`
    UPDATE ${webhookDeliveries} d
    SET locked_until = date_trunc('milliseconds', now() + make_interval(secs => ${leaseMs / 1000}))
    FROM ${users} u
    WHERE u.id = d.user_id AND d.id IN (
      SELECT w.id FROM ${webhookDeliveries} w
      LEFT JOIN ${webhookEndpoints} e ON e.id = w.endpoint_id
      WHERE w.status = 'pending' AND w.next_attempt_at <= now() AND (w.locked_until IS NULL OR w.locked_until <= now())
        AND (w.endpoint_id IS NULL OR e.enabled)
      ORDER BY w.next_attempt_at
      LIMIT ${limit}
      FOR UPDATE OF w SKIP LOCKED
    )
    RETURNING d.id, d.user_id, d.url, d.body, d.attempt_count, d.locked_until,
      coalesce((SELECT e.secret FROM ${webhookEndpoints} e WHERE e.id = d.endpoint_id), u.webhook_secret) AS secret,
      coalesce(d.resend_of, d.id) AS message_id`);
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    url: r.url,
    body: r.body,
    attemptCount: r.attempt_count,
    lockedUntil: new Date(r.locked_until),
    secret: r.secret,
    messageId: r.message_id,
  }));
}

export type DeliveryOutcome = "delivered" | "stopped" | "retry" | "failed" | "lost-lease";

/**
 * Sends one claimed delivery and records the attempt with its outcome in one transaction:
 * a 2xx delivers it, a 410 stops it, anything else retries per the schedule until the last
 * retry fails. Signed at send time with the endpoint's secret (the owner's for a callbackUrl) and a
 * fresh timestamp; the id and body are the ones fixed when the event happened.
 */
export async function attemptDelivery(db: Database, delivery: ClaimedDelivery, config: DeliveryConfig): Promise<DeliveryOutcome> {
  const secret = delivery.secret ?? (await getOrCreateWebhookSecret(db, delivery.userId));
  const startedAt = new Date();
  const headers = webhookHeaders(secret, webhookMessageId(delivery.messageId), delivery.body, startedAt);
  const result = await postCallback(delivery.url, delivery.body, headers, {
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    allowHosts: config.allowHosts,
    resolve: config.resolve,
  });
  // The owner's log says only that the address is not public; the operators' says which it was.
  if (!result.ok && result.refused)
    log.warn({ area: "callbacks", deliveryId: delivery.id, ...result.refused }, "callback host resolves to an address that is not public");
  const outcome = await recordAttempt(db, delivery, startedAt, result, config.retryDelaysMs);
  metrics.callbackDeliveries.inc({ outcome });
  return outcome;
}

function decide(result: OutboundResult, attemptNumber: number, retryDelaysMs: readonly number[]) {
  if (result.ok && result.status >= 200 && result.status < 300) return { outcome: "delivered" as const };
  if (result.ok && result.status === 410) return { outcome: "stopped" as const };
  const delayMs = result.ok || !result.permanent ? retryDelaysMs[attemptNumber - 1] : undefined;
  return delayMs === undefined ? { outcome: "failed" as const } : { outcome: "retry" as const, delayMs };
}

async function recordAttempt(
  db: Database,
  delivery: ClaimedDelivery,
  startedAt: Date,
  result: OutboundResult,
  retryDelaysMs: readonly number[],
): Promise<DeliveryOutcome> {
  const attempt = delivery.attemptCount + 1;
  const decision = decide(result, attempt, retryDelaysMs);
  const status = decision.outcome === "retry" ? "pending" : decision.outcome;
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(webhookDeliveries)
      .set({
        attemptCount: attempt,
        status,
        lockedUntil: null,
        ...(decision.outcome === "retry"
          ? { nextAttemptAt: sql`now() + make_interval(secs => ${decision.delayMs / 1000})` }
          : { finishedAt: sql`now()` }),
      })
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.status, "pending"),
          eq(webhookDeliveries.attemptCount, delivery.attemptCount),
          eq(webhookDeliveries.lockedUntil, delivery.lockedUntil),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    // Our lease ran out and another worker took the row: its attempt is the one on record.
    if (updated.length === 0) return "lost-lease";
    await tx.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attempt,
      startedAt,
      durationMs: result.durationMs,
      responseStatus: result.ok ? result.status : null,
      error: result.ok ? null : result.error.slice(0, 500),
    });
    if (decision.outcome === "failed") {
      const why = result.ok ? `HTTP ${result.status}` : result.error;
      log.warn({ area: "callbacks", webhookId: webhookMessageId(delivery.messageId), attempts: attempt, why }, "callback failed for good");
    }
    return decision.outcome;
  });
}
