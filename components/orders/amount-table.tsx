import type { Locale } from "@/lib/i18n/config";
import { intlLocale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";
import { formatRub } from "@/lib/money";

export interface Amounts {
  intentAmount: number;
  discountAmount: number;
  feeAmount: number;
  paymentAmount: number;
  feeMode: "excluded" | "included" | "naive";
  promoCode: string | null;
}

/** Price, promo discount, fee and total, in the payment page's words; the order page shows the same. */
export function AmountTable({
  amounts,
  t,
  locale,
  testId = "payment-amount",
}: {
  amounts: Amounts;
  t: Messages["pay"];
  locale: Locale;
  /** The total's test id: a form's preview names its own, so it is never taken for the order's. */
  testId?: string;
}) {
  const rub = (kopecks: number) => formatRub(kopecks, intlLocale(locale));
  // `included` carves the fee out of the price; the others add it on top.
  const feeOnTop = amounts.feeMode !== "included" && amounts.feeAmount > 0;
  return (
    <section aria-labelledby="amount-heading" className="rounded-lg border border-slate-800 bg-slate-900/60 p-5">
      <h2 id="amount-heading" className="text-sm font-semibold tracking-wide text-slate-400 uppercase">
        {t.amounts.heading}
      </h2>
      <dl className="mt-3 space-y-2 text-slate-300">
        <Row label={t.amounts.price} value={rub(amounts.intentAmount)} />
        {amounts.discountAmount > 0 ? (
          <Row label={format(t.amounts.discount, { code: amounts.promoCode ?? "" })} value={`−${rub(amounts.discountAmount)}`} />
        ) : null}
        {feeOnTop ? <Row label={t.amounts.fee} value={rub(amounts.feeAmount)} /> : null}
        <div className="flex items-baseline justify-between gap-4 border-t border-slate-700 pt-3">
          <dt className="font-semibold text-slate-100">{t.amounts.total}</dt>
          <dd className="text-2xl font-bold text-slate-50 tabular-nums" data-testid={testId}>
            {rub(amounts.paymentAmount)}
          </dd>
        </div>
        {!feeOnTop && amounts.feeAmount > 0 ? <Row label={t.amounts.feeIncluded} value={rub(amounts.feeAmount)} small /> : null}
      </dl>
    </section>
  );
}

function Row({ label, value, small }: { label: string; value: string; small?: boolean }) {
  return (
    <div className={`flex items-baseline justify-between gap-4 ${small ? "text-sm text-slate-400" : ""}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
