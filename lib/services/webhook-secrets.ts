import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

/** Standard Webhooks secret format: `whsec_` and the base64 of the key bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The owner's callback signing secret, created on first need. Two callers racing both read back
 * the one that was stored first.
 */
export async function getOrCreateWebhookSecret(db: Database, userId: string): Promise<string> {
  await db
    .update(users)
    .set({ webhookSecret: newWebhookSecret() })
    .where(and(eq(users.id, userId), isNull(users.webhookSecret)));
  const [row] = await db.select({ secret: users.webhookSecret }).from(users).where(eq(users.id, userId));
  if (!row?.secret) throw new Error(`user ${userId} does not exist`);
  return row.secret;
}
