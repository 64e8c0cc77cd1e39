import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { intents, webhookDeliveries } from "@/lib/db/schema";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { reserveGear } from "@/lib/services/gear";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
import { enqueueIntentEvent } from "@/lib/services/webhook-outbox";

export interface PaidIntent {
  intentId: string;
  userId: string;
  deliveryId: string;
  /** The outbox row as committed: what every attempt must send. */
  body: string;
}

/**
 * A gear intent created through the real service, then paid the way the payment flow does it:
 * the state change and its callback in one transaction, so neither exists without the other.
 */
export async function payIntentWithCallback(db: Database, callbackUrl: string, owner = "webhooks@example.com"): Promise<PaidIntent> {
  const userId = await ensureUser(db, owner);
  const token = await createApiToken(db, { userId, name: `webhooks-${crypto.randomBytes(3).toString("hex")}`, scopes: ["gear:create"] });
  await db.execute(sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock)
    VALUES (730, 'webhook-crate', 'Webhook Crate', 12345, 100000) ON CONFLICT DO NOTHING`);
  const created = await reserveGear(
    db,
    { id: token.id, userId, name: token.name, scopes: token.scopes },
    gearIntentRequestSchema.parse({ account: "76561198000000001", platform: "730", item: "webhook-crate", email: "gamer@example.com", callbackUrl }),
  );
  const deliveryId = await db.transaction(async (tx) => {
    const [paid] = await tx
      .update(intents)
      .set({ status: "paid", paymentProvider: "sandbox", providerPaymentId: `sbx_${crypto.randomBytes(6).toString("hex")}` })
      .where(eq(intents.id, created.intentId))
      .returning();
    return enqueueIntentEvent(tx, {
      intentId: paid!.id,
      userId,
      url: callbackUrl,
      type: "intent.paid",
      data: { intentId: paid!.id, status: paid!.status, kind: paid!.kind, paymentAmount: paid!.paymentAmount, paymentCurrency: paid!.currency, paidAt: paid!.paidAt },
    });
  });
  const [row] = await db.select({ body: webhookDeliveries.body }).from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  return { intentId: created.intentId, userId, deliveryId, body: row!.body };
}

/** Polls `check` until it returns a value other than undefined/false. */
export async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000, what = "the condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
