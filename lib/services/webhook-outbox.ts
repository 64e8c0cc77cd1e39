import "server-only";
import { sql } from "drizzle-orm";
import type { Transaction } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { WebhookEventType } from "@/lib/webhooks/events";

/** The Standard Webhooks body `{type, timestamp, data}`, fixed when the event happens so every attempt sends the same bytes. */
export function eventBody(type: string, data: unknown, at = new Date()): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * Writes an intent's event into the outbox: once to each enabled endpoint of the owner subscribed
 * to it, and, for `intent.paid` only, to the intent's `callbackUrl` ("the URL notified about a
 * successful payment": a receiver that ignored `type` must never take a cancellation for a sale).
 * Call it inside the transaction that makes the change: the deliveries exist if and only if the
 * change committed, and the worker sends them later. Returns the deliveries' ids.
 */
export async function enqueueIntentEvent(
  tx: Transaction,
  event: { intentId: string; userId: string; callbackUrl: string | null; type: WebhookEventType; data: unknown },
): Promise<string[]> {
  const body = eventBody(event.type, event.data);
  const ids: string[] = [];
  if (event.type === "intent.paid" && event.callbackUrl) {
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({ intentId: event.intentId, userId: event.userId, eventType: event.type, url: event.callbackUrl, body })
      .returning({ id: webhookDeliveries.id });
    if (!row) throw new Error("the callback was not recorded");
    ids.push(row.id);
  }
  const { rows } = await tx.execute<{ id: string }>(sql`
    INSERT INTO ${webhookDeliveries} (intent_id, user_id, endpoint_id, event_type, url, body)
    SELECT ${event.intentId}, ${event.userId}, e.id, ${event.type}, e.url, ${body}
    FROM ${webhookEndpoints} e
    WHERE e.user_id = ${event.userId} AND e.enabled AND ${event.type} = ANY (e.event_types)
    RETURNING id`);
  return [...ids, ...rows.map((r) => r.id)];
}
