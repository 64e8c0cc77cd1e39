"use client";

import Link from "next/link";
import { useEffect, useId, useRef } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format, formatStoreTime } from "@/lib/i18n/format";
import { AmountTable } from "@/components/orders/amount-table";
import type { FeeMode } from "@/lib/money";
import type { GiftVerifyResponse } from "@/lib/schemas/gifts";

export interface IntentSummaryProps {
  /** What was ordered, one line ("Gift: Portal 2, region Russia"). */
  description: string;
  /** The API's answer (gift verify and gear answer alike). */
  intent: Pick<
    GiftVerifyResponse,
    "intentId" | "paymentAmount" | "intentAmount" | "discountAmount" | "feeAmount" | "expiresAt" | "paymentUrl"
  >;
  /** How the fee was charged: carved out of the price (`included`) or added to it. */
  feeMode: FeeMode;
  /** The promo code sent, named beside its discount. */
  promoCode: string | null;
  /** Gear holds a unit of stock until then; a gift only waits. */
  kind: "gift" | "gear";
  onAnother: () => void;
}

/** The created intent: what it costs and why, until when it holds, and the way on to payment. */
export function IntentSummary({ intent, ...props }: IntentSummaryProps) {
  const { locale, t } = useI18n();
  const s = t.checkout.summary;
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  // The payment page's format: the zone, and the date unless it is today there.
  const time = formatStoreTime(new Date(intent.expiresAt), locale, new Date());

  // The form this replaces had focus; the shopper continues from the result.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-emerald-500/50 bg-emerald-950/30 p-4 sm:p-6">
      <h2 id={headingId} ref={heading} tabIndex={-1} className="text-xl font-semibold text-emerald-100">
        {s.heading}
      </h2>
      <p className="mt-1 text-slate-300">{props.description}</p>

      <div className="mt-4" data-testid="payment-amount-table">
        <AmountTable amounts={{ ...intent, feeMode: props.feeMode, promoCode: props.promoCode }} t={t.pay} locale={locale} />
      </div>

      <p className="mt-4 text-slate-300">{format(props.kind === "gear" ? s.reserved : s.expires, { time })}</p>
      <p className="mt-1 text-sm text-slate-400">
        {s.intent}: <span className="font-mono break-all text-slate-300">{intent.intentId}</span>
      </p>

      <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-center">
        <Link
          href={intent.paymentUrl}
          className="rounded-md bg-sky-400 px-5 py-3 text-center font-semibold text-slate-950 hover:bg-sky-300"
        >
          {s.proceed}
        </Link>
        <button type="button" onClick={props.onAnother} className="rounded-md px-4 py-3 text-sky-300 underline-offset-4 hover:underline">
          {s.another}
        </button>
      </div>
    </section>
  );
}
