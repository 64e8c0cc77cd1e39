import "server-only";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { DbExecutor, Transaction } from "@/lib/db/client";
import { promoCodes } from "@/lib/db/schema";
import type { Discount } from "@/lib/money";
import { DomainError, type Reason } from "@/lib/errors";

export type PromoTarget = { kind: "gifts" | "gear"; appId: number };

interface PromoRow {
  code: string;
  appliesTo: "all" | "gifts" | "gear";
  appIds: number[] | null;
  validFrom: Date | null;
  validUntil: Date | null;
}

type PromoProblem = Extract<Reason, `promo_code_${string}`>;

/** Why a code cannot be used for `target` at `now`, or null when it can (usage limit aside). */
export function promoCodeProblem(promo: PromoRow, target: PromoTarget, now: Date): PromoProblem | null {
  if (promo.validFrom && promo.validFrom > now) return "promo_code_not_yet_valid";
  if (promo.validUntil && promo.validUntil <= now) return "promo_code_expired";
  if (promo.appliesTo !== "all" && promo.appliesTo !== target.kind) {
    return target.kind === "gifts" ? "promo_code_not_for_gifts" : "promo_code_not_for_gear";
  }
  if (promo.appIds && !promo.appIds.includes(target.appId)) {
    return target.kind === "gifts" ? "promo_code_not_for_game" : "promo_code_not_for_platform";
  }
  return null;
}

const refused = (reason: PromoProblem, code: string) => new DomainError(reason, { code }, "code");

/** The code's row when it exists and applies to `target` at `now` (its usage limit aside); else its refusal. */
export async function checkPromoCode(tx: DbExecutor, code: string, target: PromoTarget, now = new Date()) {
  const [promo] = await tx.select().from(promoCodes).where(eq(promoCodes.code, code)).limit(1);
  // A disabled code is refused word for word like one that never existed: it tells a guesser nothing.
  if (!promo || promo.disabledAt !== null) throw refused("promo_code_unknown", code);
  const problem = promoCodeProblem(promo, target, now);
  if (problem) throw refused(problem, promo.code);
  return promo;
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
  const promo = await checkPromoCode(tx, code, target, now);
  const [used] = await tx
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} + 1` })
    .where(and(eq(promoCodes.id, promo.id), or(isNull(promoCodes.maxUses), lt(promoCodes.uses, promoCodes.maxUses))))
    .returning({ id: promoCodes.id });
  if (!used) throw refused("promo_code_used_up", promo.code);
  return { id: promo.id, discount: { kind: promo.kind, value: promo.value } };
}

/**
 * What a code would do for `target`, read-only (a quote): its discount, or the refusal redeeming it
 * would meet now, used-up included. Counts nothing and locks nothing.
 */
export async function previewPromoCode(
  db: DbExecutor,
  code: string,
  target: PromoTarget,
  now = new Date(),
): Promise<{ discount: Discount } | { refusal: DomainError }> {
  try {
    const promo = await checkPromoCode(db, code, target, now);
    if (promo.maxUses !== null && promo.uses >= promo.maxUses) return { refusal: refused("promo_code_used_up", promo.code) };
    return { discount: { kind: promo.kind, value: promo.value } };
  } catch (err) {
    if (err instanceof DomainError) return { refusal: err };
    throw err;
  }
}
