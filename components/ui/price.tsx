import { intlLocale, type Locale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";
import { allInPrice, formatRub, type StorePricing } from "@/lib/money";
import type { Price as PriceValue } from "@/lib/schemas/catalog";

const SIZES = { md: "text-base", lg: "text-2xl" } as const;

/**
 * A catalog price as the shopper pays it on the store's pages (`pricing`: the store's fee mode), in roubles: the discount and the struck full price when discounted, "no price yet" for null.
 * Screen readers get one sentence, since `<del>` and a badge are not announced as what they mean.
 */
export function Price({
  price: listed,
  pricing,
  locale,
  labels,
  size = "md",
  align = "start",
}: {
  price: PriceValue | null;
  pricing: StorePricing;
  locale: Locale;
  labels: Messages["common"]["price"];
  size?: keyof typeof SIZES;
  /** Where wrapped lines go: "end" in right-aligned table cells. */
  align?: "start" | "end";
}) {
  if (!listed) return <span className="text-sm text-slate-400">{labels.none}</span>;
  const price = allInPrice(listed, pricing);
  const tag = intlLocale(locale);
  const now = formatRub(price.paymentAmount, tag);
  if (price.paymentAmountFull === undefined || price.discountPercent === undefined) {
    return <span className={`${SIZES[size]} font-semibold text-white`}>{now}</span>;
  }
  const was = formatRub(price.paymentAmountFull, tag);
  const spoken = `${format(labels.discount, { percent: price.discountPercent })}. ${format(labels.was, { price: was })}, ${format(labels.now, { price: now })}`;
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-2 gap-y-1 ${align === "end" ? "justify-end" : ""}`}>
      <span className="sr-only">{spoken}</span>
      <span aria-hidden="true" className="rounded bg-lime-400 px-1.5 py-0.5 text-sm font-bold text-slate-950">
        −{price.discountPercent}%
      </span>
      <del aria-hidden="true" className="text-sm text-slate-400">
        {was}
      </del>
      <span aria-hidden="true" className={`${SIZES[size]} font-semibold text-lime-300`}>
        {now}
      </span>
    </span>
  );
}
