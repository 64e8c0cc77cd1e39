import { Price } from "@/components/ui/price";
import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";
import type { StorePricing } from "@/lib/money";
import type { GameDetails } from "@/lib/schemas/catalog";

export function Editions({
  packages,
  pricing,
  free = false,
  locale,
  t,
}: {
  packages: GameDetails["packages"];
  pricing: StorePricing;
  /** A free-to-play game: an edition without a price is free, not "no price yet". */
  free?: boolean;
  locale: Locale;
  t: Messages;
}) {
  return (
    <section aria-labelledby="editions-title">
      <h2 id="editions-title" className="text-xl font-semibold text-white">
        {t.game.editions.title}
      </h2>
      <table className="mt-3 w-full border-collapse text-left">
        <thead className="sr-only">
          <tr>
            <th scope="col">{t.game.editions.edition}</th>
            <th scope="col">{t.game.editions.price}</th>
          </tr>
        </thead>
        <tbody>
          {packages.map((p) => (
            <tr key={p.packageId} className="border-b border-slate-800 last:border-0">
              <th scope="row" className="py-3 pr-4 align-top font-medium text-slate-100">
                {p.title}
                {p.isMain && (
                  <span className="ml-2 rounded bg-slate-800 px-1.5 py-0.5 text-xs font-normal text-slate-300">{t.game.editions.main}</span>
                )}
              </th>
              <td className="py-3 text-right align-top">
                {free && p.price === null ? (
                  <span className="font-semibold text-emerald-300">{t.common.price.free}</span>
                ) : (
                  <Price price={p.price} pricing={pricing} locale={locale} labels={t.common.price} align="end" />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
