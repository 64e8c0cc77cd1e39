import crypto from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { reserveGear } from "@/lib/services/gear";
import { createApiToken } from "@/lib/services/tokens";
import { payIntent } from "@/lib/services/intent-lifecycle";
import { partnerAccount } from "./partners";

const ORIGIN = "https://store.example.com";

export interface PaidIntent {
  intentId: string;
  userId: string;
  deliveryId: string;
  /** The outbox row as committed: what every attempt must send. */
  body: string;
}

/** A gear intent created and paid through the real services; the payment enqueues its callback. */
export async function payIntentWithCallback(db: Database, callbackUrl: string, owner = "webhooks@example.com"): Promise<PaidIntent> {
  // A partner's integration: many of these run at once, beyond a shopper's cap on open holds.
  const userId = await partnerAccount(db, owner);
  const token = await createApiToken(db, { userId, name: `webhooks-${crypto.randomBytes(3).toString("hex")}`, scopes: ["gear:create"] });
  await db.execute(sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock)
    VALUES (730, 'webhook-crate', 'Webhook Crate', 12345, 100000) ON CONFLICT DO NOTHING`);
  const created = await reserveGear(
    db,
    { id: token.id, userId, name: token.name, scopes: token.scopes, purpose: "api", guest: false },
    // callbackUrl goes in unchecked: these tests face the sender's own checks with URLs (loopback
    // receivers among them) that the request schema refuses unless WEBHOOK_ALLOW_HOSTS opens them.
    {
      ...gearIntentRequestSchema.parse({
        account: "76561198000000001",
        platform: "730",
        item: "webhook-crate",
        email: "gamer@example.com",
      }),
      callbackUrl,
    },
    ORIGIN,
  );
  // The payment flow itself: the state change and its callback commit in one transaction.
  await payIntent(db, created.intentId, {
    provider: "sandbox",
    providerPaymentId: `sbx_${crypto.randomBytes(6).toString("hex")}`,
    origin: ORIGIN,
  });
  const [delivery] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.intentId, created.intentId), isNull(webhookDeliveries.endpointId)));
  const deliveryId = delivery!.id;
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
