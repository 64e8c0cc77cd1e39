import { intlLocale, type Locale } from "./config";

const names = new Map<Locale, Intl.DisplayNames>();

/** A region code as the shopper reads it: "KZ" is "Казахстан" or "Kazakhstan"; an unknown code stays as it is. */
export function regionName(code: string, locale: Locale): string {
  let display = names.get(locale);
  if (!display) {
    display = new Intl.DisplayNames([intlLocale(locale)], { type: "region", fallback: "code" });
    names.set(locale, display);
  }
  try {
    return display.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
