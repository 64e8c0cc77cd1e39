import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { users, webhookAttempts, webhookDeliveries, webhookEndpoints, type WEBHOOK_DELIVERY_STATUSES } from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import { isUuid } from "@/lib/schemas/common";
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_TEST_EVENT, type WebhookEventType } from "@/lib/webhooks/events";
import { POLICIES, rateLimitsEnabled, takeRateLimits } from "./rate-limits";
import { eventBody } from "./webhook-outbox";
import { newWebhookSecret } from "./webhook-secrets";

// An owner's webhook endpoints (the account page): each hears of the intent events it subscribed
// to (lib/services/intent-lifecycle.ts writes them), signed with its own secret. Every operation
// names the owner, and another owner's id is "not found", never touched.

export interface WebhookEndpoint {
  id: string;
  url: string;
  eventTypes: WebhookEventType[];
  secret: string;
  enabled: boolean;
  createdAt: Date;
}

export interface EndpointDelivery {
  id: string;
  eventType: string;
  intentId: string | null;
  status: (typeof WEBHOOK_DELIVERY_STATUSES)[number];
  attemptCount: number;
  createdAt: Date;
  nextAttemptAt: Date;
  resent: boolean;
  /** The latest attempt's answer: HTTP status, or why there was none. */
  lastResponseStatus: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
}

const endpointNotFound = () => new DomainError("webhook_endpoint_not_found", {});

/**
 * Registers an endpoint within the owner's cap. The owner's row is locked while the endpoints are
 * counted and the new one inserted, so concurrent registrations are counted one at a time and
 * never get past the cap. `url` must have passed the callbackUrl rule (lib/schemas/webhooks.ts).
 */
export function createWebhookEndpoint(
  db: Database,
  input: { userId: string; url: string; eventTypes: WebhookEventType[] },
): Promise<WebhookEndpoint> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for("update");
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, input.userId));
    if ((count?.n ?? 0) >= MAX_WEBHOOK_ENDPOINTS) throw new DomainError("webhook_endpoint_limit_reached", { max: MAX_WEBHOOK_ENDPOINTS });
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ userId: input.userId, url: input.url, eventTypes: input.eventTypes, secret: newWebhookSecret() })
      .returning();
    if (!row) throw new Error("the endpoint was not recorded");
    return pick(row);
  });
}

const pick = (row: typeof webhookEndpoints.$inferSelect): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  eventTypes: row.eventTypes,
  secret: row.secret,
  enabled: row.enabled,
  createdAt: row.createdAt,
});

export async function listWebhookEndpoints(db: Database, userId: string): Promise<WebhookEndpoint[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  return rows.map(pick);
}

const mine = (userId: string, endpointId: string) => and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId));

/** Turns an endpoint off (its pending deliveries wait) or on again (they go out). */
export async function setWebhookEndpointEnabled(db: Database, userId: string, endpointId: string, enabled: boolean): Promise<void> {
  if (!isUuid(endpointId)) throw endpointNotFound();
  const updated = await db
    .update(webhookEndpoints)
    .set({ enabled, updatedAt: sql`now()` })
    .where(mine(userId, endpointId))
    .returning({ id: webhookEndpoints.id });
  if (updated.length === 0) throw endpointNotFound();
}

/** A new secret for the endpoint, returned once; deliveries from now on are signed with it. */
export async function rotateWebhookEndpointSecret(db: Database, userId: string, endpointId: string): Promise<string> {
  if (!isUuid(endpointId)) throw endpointNotFound();
  const [row] = await db
    .update(webhookEndpoints)
    .set({ secret: newWebhookSecret(), updatedAt: sql`now()` })
    .where(mine(userId, endpointId))
    .returning({ secret: webhookEndpoints.secret });
  if (!row) throw endpointNotFound();
  return row.secret;
}

/** Removes the endpoint with its delivery log; nothing more is sent to it. */
export async function deleteWebhookEndpoint(db: Database, userId: string, endpointId: string): Promise<void> {
  if (!isUuid(endpointId)) throw endpointNotFound();
  const deleted = await db.delete(webhookEndpoints).where(mine(userId, endpointId)).returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw endpointNotFound();
}

/**
 * Counts a test event or resend against its endpoint (RATE_LIMIT_WEBHOOK_SENDS_PER_ENDPOINT a
 * minute) and its account (RATE_LIMIT_WEBHOOK_SENDS_PER_ACCOUNT an hour), both in one statement
 * before anything is queued, so a burst never queues more than either allows; past either, 429
 * `rate_limited`. Each one is an immediate POST with retries to a URL the owner chose: unlimited,
 * the store would be anyone's POST reflector.
 */
async function takeSend(db: Database, userId: string, endpointId: string): Promise<void> {
  if (!rateLimitsEnabled()) return;
  await takeRateLimits(db, [
    {
      key: `webhook-sends:endpoint:${endpointId}`,
      policy: POLICIES.webhookSendsEndpoint,
      what: "test events and resends to this endpoint",
    },
    { key: `webhook-sends:user:${userId}`, policy: POLICIES.webhookSendsAccount, what: "test events and resends for this account" },
  ]);
}

/**
 * Queues a `webhook.test` event to the endpoint, whatever it subscribed to and even while it is
 * disabled (it waits there like the rest): the way to see a receiver verify a signature. Limited
 * with resends (`takeSend`).
 */
export async function sendTestEvent(db: Database, userId: string, endpointId: string): Promise<string> {
  if (!isUuid(endpointId)) throw endpointNotFound();
  const [endpoint] = await db.select({ url: webhookEndpoints.url }).from(webhookEndpoints).where(mine(userId, endpointId));
  if (!endpoint) throw endpointNotFound();
  await takeSend(db, userId, endpointId);
  const body = eventBody(WEBHOOK_TEST_EVENT, { endpointId, message: "A test event from GiftKey: nothing happened to any intent." });
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ userId, endpointId, eventType: WEBHOOK_TEST_EVENT, url: endpoint.url, body })
    .returning({ id: webhookDeliveries.id });
  return row!.id;
}

/**
 * Sends a delivery to its endpoint again as a new delivery with the same body and `webhook-id`
 * (Standard Webhooks: a resent message keeps its id), to the endpoint's current URL. Only an
 * endpoint's deliveries can be resent from here; an intent's callbackUrl gets each event once.
 * Limited with test events (`takeSend`).
 */
export async function resendWebhookDelivery(db: Database, userId: string, deliveryId: string): Promise<string> {
  if (!isUuid(deliveryId)) throw new DomainError("webhook_delivery_not_found", {});
  const [delivery] = await db
    .select({ endpointId: webhookEndpoints.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.userId, userId)));
  if (!delivery) throw new DomainError("webhook_delivery_not_found", {});
  await takeSend(db, userId, delivery.endpointId);
  const { rows } = await db.execute<{ id: string }>(sql`
    INSERT INTO ${webhookDeliveries} (intent_id, user_id, endpoint_id, resend_of, event_type, url, body)
    SELECT d.intent_id, d.user_id, d.endpoint_id, coalesce(d.resend_of, d.id), d.event_type, e.url, d.body
    FROM ${webhookDeliveries} d JOIN ${webhookEndpoints} e ON e.id = d.endpoint_id
    WHERE d.id = ${deliveryId} AND e.user_id = ${userId}
    RETURNING id`);
  const row = rows[0];
  if (!row) throw new DomainError("webhook_delivery_not_found", {});
  return row.id;
}

/** The latest deliveries to each of the owner's endpoints, newest first, with each one's last attempt. */
export async function listEndpointDeliveries(
  db: Database,
  userId: string,
  { perEndpoint = 10 }: { perEndpoint?: number } = {},
): Promise<Map<string, EndpointDelivery[]>> {
  const { rows } = await db.execute<{
    endpoint_id: string;
    id: string;
    event_type: string;
    intent_id: string | null;
    status: EndpointDelivery["status"];
    attempt_count: number;
    created_at: string | Date;
    next_attempt_at: string | Date;
    resend_of: string | null;
    response_status: number | null;
    error: string | null;
    started_at: string | Date | null;
  }>(sql`
    SELECT d.endpoint_id, d.id, d.event_type, d.intent_id, d.status, d.attempt_count, d.created_at, d.next_attempt_at, d.resend_of,
      a.response_status, a.error, a.started_at
    FROM ${webhookEndpoints} e
    CROSS JOIN LATERAL (
      SELECT * FROM ${webhookDeliveries} w WHERE w.endpoint_id = e.id ORDER BY w.created_at DESC, w.id DESC LIMIT ${perEndpoint}
    ) d
    LEFT JOIN LATERAL (
      SELECT response_status, error, started_at FROM ${webhookAttempts} WHERE delivery_id = d.id ORDER BY attempt DESC LIMIT 1
    ) a ON true
    WHERE e.user_id = ${userId}
    ORDER BY d.created_at DESC, d.id DESC`);
  const byEndpoint = new Map<string, EndpointDelivery[]>();
  const date = (v: string | Date) => new Date(v);
  for (const r of rows) {
    const list = byEndpoint.get(r.endpoint_id) ?? [];
    list.push({
      id: r.id,
      eventType: r.event_type,
      intentId: r.intent_id,
      status: r.status,
      attemptCount: r.attempt_count,
      createdAt: date(r.created_at),
      nextAttemptAt: date(r.next_attempt_at),
      resent: r.resend_of !== null,
      lastResponseStatus: r.response_status,
      lastError: r.error,
      lastAttemptAt: r.started_at ? date(r.started_at) : null,
    });
    byEndpoint.set(r.endpoint_id, list);
  }
  return byEndpoint;
}
