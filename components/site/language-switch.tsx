import { LOCALES, type Locale } from "@/lib/i18n/config";
import { setLocale } from "@/lib/i18n/actions";
import type { Messages } from "@/lib/i18n/messages";

/**
 * RU / EN as a form with one button per language: it posts to a server action, so it works by
 * keyboard and even before the page's script has loaded.
 */
export function LanguageSwitch({ locale, t }: { locale: Locale; t: Messages }) {
  return (
    <form action={setLocale} className="flex items-center">
      <fieldset className="flex rounded-md border border-slate-700 p-0.5">
        <legend className="sr-only">{t.common.language.label}</legend>
        {LOCALES.map((option) => (
          <button
            key={option}
            type="submit"
            name="locale"
            value={option}
            lang={option}
            title={t.common.language[option]}
            aria-pressed={option === locale}
            className={`min-h-9 min-w-10 rounded px-2 text-xs font-bold tracking-wide transition-colors ${
              option === locale ? "bg-slate-200 text-slate-950" : "text-slate-300 hover:bg-slate-800 hover:text-white"
            }`}
          >
            {option.toUpperCase()}
          </button>
        ))}
      </fieldset>
    </form>
  );
}
