import "server-only";
import { eq } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import { partners } from "@/lib/db/schema";

// Whether an account is a partner, for the rules that depend on it (tokens with intents:refund, the
// API's refunds, the open-holds caps); lib/services/partners.ts makes and ends partnerships.

/** Whether the account is a partner now. */
export async function isPartner(db: DbExecutor, userId: string): Promise<boolean> {
  const [row] = await db.select({ userId: partners.userId }).from(partners).where(eq(partners.userId, userId));
  return Boolean(row);
}

/**
 * Whether the account is a partner, read inside the caller's transaction with the row share-locked,
 * so an admin ending the partnership waits for what the caller does as a partner (a refund, a token).
 */
export async function lockPartner(tx: DbExecutor, userId: string): Promise<boolean> {
  const [row] = await tx.select({ userId: partners.userId }).from(partners).where(eq(partners.userId, userId)).for("share");
  return Boolean(row);
}
