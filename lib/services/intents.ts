import "server-only";
import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Database, Transaction } from "@/lib/db/client";
import { intents } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { feeRateToBps, quote, type Discount, type FeeMode, type Quote } from "@/lib/money";
import { redeemPromoCode, type PromoTarget } from "./promo-codes";

const feeRateBps = feeRateToBps(env.FEE_RATE);

type IntentValues = typeof intents.$inferInsert;

/**
 * Prices a purchase (promo code, then fee) and records the intent. With a promo code it must run in
 * the caller's transaction, which then holds the code's use and the intent together.
 * Every amount is computed here; a client never sends one.
 */
export async function createIntent(
  tx: Database | Transaction,
  input: {
    price: number;
    feeMode: FeeMode;
    promoCode?: string;
    promoTarget: PromoTarget;
    values: Omit<IntentValues, keyof Quote | "feeMode" | "promoCodeId" | "expiresAt" | "id" | "status" | "currency" | "createdAt">;
  },
): Promise<{ id: string; quote: Quote; expiresAt: Date }> {
  let discount: Discount | undefined;
  let promoCodeId: number | null = null;
  if (input.promoCode) {
    if (!(tx instanceof PgTransaction)) throw new Error("redeeming a promo code needs the intent's transaction");
    const redeemed = await redeemPromoCode(tx, input.promoCode, input.promoTarget);
    discount = redeemed.discount;
    promoCodeId = redeemed.id;
  }
  const priced = quote(input.price, input.feeMode, feeRateBps, discount);
  const [row] = await tx
    .insert(intents)
    .values({
      ...input.values,
      ...priced,
      feeMode: input.feeMode,
      promoCodeId,
      expiresAt: sql`now() + make_interval(secs => ${env.INTENT_TTL_SECONDS})`,
    })
    .returning({ id: intents.id, expiresAt: intents.expiresAt });
  if (!row) throw new Error("the intent was not recorded");
  return { id: row.id, quote: priced, expiresAt: row.expiresAt };
}
