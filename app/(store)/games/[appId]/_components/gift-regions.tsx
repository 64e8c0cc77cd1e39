import { intlLocale, type Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";
import { formatRub } from "@/lib/money";
import type { GiftRegionPrice } from "@/lib/schemas/catalog";

/**
 * Each gift region with the main edition's local price there and whether it can be gifted there now
 * (the service's verdict by the one gift rule, so it never contradicts the buy box). A free game has
 * nothing to gift.
 */
export function GiftRegions({ regions, free, locale, t }: { regions: GiftRegionPrice[]; free: boolean; locale: Locale; t: Messages }) {
  const tag = intlLocale(locale);
  const names = new Intl.DisplayNames(tag, { type: "region", fallback: "code" });
  const name = (code: string) => {
    try {
      return names.of(code) ?? code;
    } catch {
      return code; // not a region code Intl knows
    }
  };
  const local = (r: GiftRegionPrice) =>
    r.currency && r.amount !== null ? new Intl.NumberFormat(tag, { style: "currency", currency: r.currency }).format(r.amount / 100) : null;
  const text = t.game.regions;
  return (
    <section aria-labelledby="regions-title">
      <h2 id="regions-title" className="text-xl font-semibold text-white">
        {text.title}
      </h2>
      {free ? (
        <p className="mt-3 text-slate-300">{text.free}</p>
      ) : regions.length === 0 ? (
        <p className="mt-3 text-slate-300">{text.none}</p>
      ) : (
        <>
          <p className="mt-3 text-sm text-slate-400">{text.body}</p>
          <table className="mt-3 w-full border-collapse text-left text-sm">
            <thead className="text-slate-400">
              <tr>
                <th scope="col" className="py-2 pr-3 font-normal">
                  {text.region}
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-normal">
                  {text.localPrice}
                </th>
                <th scope="col" className="py-2 font-normal">
                  {text.status}
                </th>
              </tr>
            </thead>
            <tbody>
              {regions.map((r) => {
                const price = local(r);
                return (
                  <tr key={r.region} className="border-t border-slate-800">
                    <th scope="row" className="py-2 pr-3 align-top font-medium text-slate-100">
                      {name(r.region)} <span className="font-normal text-slate-400">{r.region}</span>
                    </th>
                    <td className="py-2 pr-3 text-right align-top text-slate-200">
                      {price ?? "—"}
                      {price && r.currency !== "RUB" && r.convertedAmount !== null && (
                        <span className="block text-xs text-slate-400">≈ {formatRub(r.convertedAmount, tag)}</span>
                      )}
                    </td>
                    <td className={`py-2 align-top ${r.refusal === null ? "text-lime-300" : "text-amber-200"}`}>
                      {r.refusal === null ? text.giftable : text.refusals[r.refusal]}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
