"use client";

import { useQuery, type UseQueryOptions } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { AmountTable } from "@/components/orders/amount-table";
import { localizeApiError, type ApiProblem, type ApiProblemContext } from "@/lib/i18n/checkout-errors";
import { intlLocale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import type { Reason } from "@/lib/errors";
import { formatRub, type FeeMode, type Quote } from "@/lib/money";
import type { QuoteResponse } from "@/lib/schemas/common";

/**
 * The promo code the shopper applied, priced by the store's quote endpoint before any order exists.
 * `body` is what to price without the code (null while there is nothing chosen); the quote is asked
 * once per applied code and body, and typing in the code field takes the code off again.
 */
export function usePromoQuote<Body extends object, Key extends readonly unknown[]>({
  body,
  options,
  context,
}: {
  body: Body | null;
  options: (body: Body & { code: string }) => UseQueryOptions<QuoteResponse, Error, QuoteResponse, Key>;
  context: ApiProblemContext;
}) {
  const { t } = useI18n();
  const [applied, setApplied] = useState<string | null>(null);
  const asked = applied && body ? { ...body, code: applied } : null;
  const query = useQuery({ ...options(asked ?? ({ ...body, code: "" } as Body & { code: string })), enabled: asked !== null });
  const quote = asked ? query.data : undefined;
  const problems: ApiProblem[] = (quote?.refusals ?? []).map((r) =>
    localizeApiError({ status: 200, reason: r.reason as Reason, param: r.param, message: r.message }, t, {
      ...context,
      code: applied ?? "",
    }),
  );
  return {
    applied,
    /** Applies the code typed (or takes an empty one off). */
    apply: (typed: string) => setApplied(typed.trim().toUpperCase() || null),
    /** The shopper edits the code: the applied one no longer stands. */
    clear: () => setApplied(null),
    applying: asked !== null && query.isFetching,
    /** The store's answer for the applied code, once it came. */
    quote,
    codeError: problems.find((p) => p.field === "code")?.message ?? (asked && query.isError ? t.checkout.quote.failed : undefined),
    /** Refusals other than the code's: what would stop the order now (out of stock, region). */
    otherProblems: problems.filter((p) => p.field !== "code").map((p) => p.message),
  };
}

/**
 * What the shopper will pay, in the payment page's own table and words: the applied code's quote
 * when there is one, else the price with the store's fee. Updated as the choice changes.
 */
export function QuotePanel({
  local,
  feeMode,
  promo,
}: {
  /** The amounts without a code, priced in the browser by the same rule as the store. */
  local: Quote | null;
  feeMode: FeeMode;
  promo: ReturnType<typeof usePromoQuote<object, readonly unknown[]>>;
}) {
  const { locale, t } = useI18n();
  const q = promo.quote;
  const amounts =
    q && q.intentAmount !== null && q.paymentAmount !== null
      ? { intentAmount: q.intentAmount, discountAmount: q.discountAmount, feeAmount: q.feeAmount, paymentAmount: q.paymentAmount }
      : local;
  if (!amounts) return null;
  const discounted = amounts.discountAmount > 0;
  return (
    <div aria-live="polite" data-testid="quote" className={promo.applying ? "opacity-60 transition-opacity" : "transition-opacity"}>
      {discounted && promo.applied && (
        <p className="mb-2 text-sm text-emerald-300">
          ✓ {format(t.checkout.code.applied, { code: promo.applied, amount: formatRub(amounts.discountAmount, intlLocale(locale)) })}
        </p>
      )}
      <AmountTable
        amounts={{ ...amounts, feeMode, promoCode: discounted ? promo.applied : null }}
        t={t.pay}
        locale={locale}
        testId="quote-amount"
      />
      {promo.otherProblems.length > 0 && (
        <div className="mt-2 text-sm text-amber-200">
          <p>{t.checkout.quote.refused}</p>
          <ul className="list-disc pl-5">
            {promo.otherProblems.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
