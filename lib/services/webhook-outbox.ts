import "server-only";
import type { Transaction } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";

export type IntentEventType = "intent.paid" | "intent.canceled" | "intent.expired" | "intent.fulfilled";

/**
 * Writes a callback into the outbox. Call it inside the transaction that changes the intent's
 * state: the event exists if and only if the change committed, and the worker sends it later.
 * The body is fixed now, in the Standard Webhooks shape `{type, timestamp, data}`, so every
 * attempt sends the same bytes.
 */
export async function enqueueIntentEvent(
  tx: Transaction,
  event: { intentId: string; userId: string; url: string; type: IntentEventType; data: unknown },
): Promise<string> {
  const body = JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data: event.data });
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ intentId: event.intentId, userId: event.userId, eventType: event.type, url: event.url, body })
    .returning({ id: webhookDeliveries.id });
  if (!row) throw new Error("the callback was not recorded");
  return row.id;
}
