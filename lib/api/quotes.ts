import "server-only";
import { PROMO_GUESS_REASONS, isDomainError } from "@/lib/errors";
import { CURRENCY } from "@/lib/money";
import type { QuoteResponse } from "@/lib/schemas/common";
import type { GiftQuoteResponse } from "@/lib/schemas/gifts";
import type { InviteRecipient } from "@/lib/steam";
import type { PurchaseQuote } from "@/lib/services/intents";
import { messageOf } from "./reasons";

/** A quote's 200 body: the amounts, and each refusal as the creating endpoint would word it. */
export function quoteBody(q: PurchaseQuote): QuoteResponse {
  return {
    code: 200,
    purchasable: q.refusals.length === 0,
    intentAmount: q.quote?.intentAmount ?? null,
    intentCurrency: CURRENCY,
    discountAmount: q.quote?.discountAmount ?? 0,
    feeAmount: q.quote?.feeAmount ?? 0,
    paymentAmount: q.quote?.paymentAmount ?? null,
    paymentCurrency: CURRENCY,
    fee: q.feeMode,
    refusals: q.refusals.map((r) => ({
      reason: r.reason,
      ...(r.param ? { param: r.param } : {}),
      message: messageOf(r.reason, r.details),
    })),
  };
}

/** POST /gifts/quote's 200 body: a quote's, with the friend the invite link names. */
export function giftQuoteBody(q: PurchaseQuote & { recipient: InviteRecipient | null }): GiftQuoteResponse {
  return { ...quoteBody(q), recipient: q.recipient };
}

/** Whether the quote found the promo code wrong: a guess, counted as a refused verify's would be. */
export const quotedWrongCode = (q: PurchaseQuote): boolean => q.refusals.some((r) => isDomainError(r, ...PROMO_GUESS_REASONS));
