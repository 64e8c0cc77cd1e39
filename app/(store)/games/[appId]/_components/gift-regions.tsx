import { intlLocale, type Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";

export function GiftRegions({ regions, locale, t }: { regions: string[]; locale: Locale; t: Messages }) {
  const names = new Intl.DisplayNames(intlLocale(locale), { type: "region", fallback: "code" });
  const name = (code: string) => {
    try {
      return names.of(code) ?? code;
    } catch {
      return code; // not a region code Intl knows
    }
  };
  return (
    <section aria-labelledby="regions-title">
      <h2 id="regions-title" className="text-xl font-semibold text-white">
        {t.game.regions.title}
      </h2>
      {regions.length === 0 ? (
        <p className="mt-3 text-slate-300">{t.game.regions.none}</p>
      ) : (
        <>
          <p className="mt-3 text-sm text-slate-400">{t.game.regions.body}</p>
          <ul className="mt-3 flex flex-wrap gap-2">
            {regions.map((code) => (
              <li key={code} className="rounded-md bg-slate-800 px-2.5 py-1 text-sm text-slate-200">
                {name(code)} <span className="text-slate-400">{code}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
