import "server-only";
import { sql } from "drizzle-orm";
import type { Database, Transaction } from "@/lib/db/client";
import { intents } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { feeRateToBps, quote, type Discount, type FeeMode, type Quote } from "@/lib/money";
import { redeemPromoCode, type PromoTarget } from "./promo-codes";

const feeRateBps = feeRateToBps(env.FEE_RATE);

type IntentValues = typeof intents.$inferInsert;

export interface IntentInput {
  price: number;
  feeMode: FeeMode;
  promoCode?: string;
  promoTarget: PromoTarget;
  values: Omit<IntentValues, keyof Quote | "feeMode" | "promoCodeId" | "expiresAt" | "id" | "status" | "currency" | "createdAt">;
}

export interface CreatedIntent {
  id: string;
  quote: Quote;
  expiresAt: Date;
}

/**
 * Prices a purchase (promo code, then fee) and records the intent. Every amount is computed here;
 * a client never sends one. Without a promo code the intent is one INSERT, atomic by itself; with
 * one, the code's use and the intent share a transaction, so neither exists without the other.
 */
export function createIntent(db: Database, input: IntentInput): Promise<CreatedIntent> {
  return input.promoCode ? db.transaction((tx) => insertIntent(tx, input)) : insertIntent(db, input);
}

async function insertIntent(tx: Database | Transaction, input: IntentInput): Promise<CreatedIntent> {
  let discount: Discount | undefined;
  let promoCodeId: number | null = null;
  if (input.promoCode) {
    const redeemed = await redeemPromoCode(tx as Transaction, input.promoCode, input.promoTarget);
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
