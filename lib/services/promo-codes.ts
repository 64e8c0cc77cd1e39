import "server-only";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Transaction } from "@/lib/db/client";
import { promoCodes } from "@/lib/db/schema";
import type { Discount } from "@/lib/money";
import { promoCodeRefused } from "@/lib/api/errors";

export type PromoTarget = { kind: "gifts" | "gear"; appId: number };

interface PromoRow {
  code: string;
  appliesTo: "all" | "gifts" | "gear";
  appIds: number[] | null;
  validFrom: Date | null;
  validUntil: Date | null;
}

/** Why a code cannot be used for `target` at `now`, or null when it can (usage limit aside). */
export function promoCodeProblem(promo: PromoRow, target: PromoTarget, now: Date): string | null {
  if (promo.validFrom && promo.validFrom > now) return `promo code ${promo.code} is not valid yet`;
  if (promo.validUntil && promo.validUntil <= now) return `promo code ${promo.code} has expired`;
  if (promo.appliesTo !== "all" && promo.appliesTo !== target.kind) {
    return `promo code ${promo.code} does not apply to ${target.kind === "gifts" ? "gifts" : "gear"}`;
  }
  if (promo.appIds && !promo.appIds.includes(target.appId)) {
    return `promo code ${promo.code} does not apply to ${target.kind === "gifts" ? "this game" : "this platform"}`;
  }
  return null;
}

/**
 * Checks a promo code and counts one use of it, inside the caller's transaction, so the use
 * is undone when the intent is not created. The conditional update is what enforces the limit.
 */
export async function redeemPromoCode(
  tx: Transaction,
  code: string,
  target: PromoTarget,
  now = new Date(),
): Promise<{ id: number; discount: Discount }> {
  const [promo] = await tx.select().from(promoCodes).where(eq(promoCodes.code, code)).limit(1);
  if (!promo) throw promoCodeRefused(`promo code ${code} does not exist`);
  const problem = promoCodeProblem(promo, target, now);
  if (problem) throw promoCodeRefused(problem);
  const [used] = await tx
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} + 1` })
    .where(and(eq(promoCodes.id, promo.id), or(isNull(promoCodes.maxUses), lt(promoCodes.uses, promoCodes.maxUses))))
    .returning({ id: promoCodes.id });
  if (!used) throw promoCodeRefused(`promo code ${code} has reached its usage limit`);
  return { id: promo.id, discount: { kind: promo.kind, value: promo.value } };
}
