import type { Locale } from "./config";
import { intlLocale } from "./config";

/** Plural forms by Intl.PluralRules category; Russian uses one/few/many, English one/other. */
export interface PluralForms {
  one: string;
  few?: string;
  many?: string;
  other: string;
}

/** Replaces `{name}` placeholders; a missing value leaves the placeholder visible rather than guessing. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

const pluralRules = new Map<Locale, Intl.PluralRules>();

/** Picks the form for `count` and fills `{count}` (formatted with the locale's digit grouping). */
export function plural(locale: Locale, count: number, forms: PluralForms): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(intlLocale(locale));
    pluralRules.set(locale, rules);
  }
  const category = rules.select(count);
  const template = (category === "one" || category === "few" || category === "many" ? forms[category] : undefined) ?? forms.other;
  return format(template, { count: new Intl.NumberFormat(intlLocale(locale)).format(count) });
}

/** The store's days begin and end in Moscow, as its receipts, pages and reports state them. */
export const STORE_TIME_ZONE = "Europe/Moscow";

/** The calendar day of `date` in the store's zone, as YYYY-MM-DD. */
const storeDay = (date: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: STORE_TIME_ZONE }).format(date);

/**
 * A moment as the store states it, the one format of every page, summary and mail: in Moscow time,
 * the zone printed beside it ("26 ноября в 01:54 MSK"). With `now` (a page read as it is shown),
 * the date is left out when the moment falls on the same day in that zone ("01:54 MSK"); without it
 * (mail, read later) the date is always there.
 */
export function formatStoreTime(date: Date, locale: Locale, now?: Date): string {
  const sameDay = now !== undefined && storeDay(date) === storeDay(now);
  return new Intl.DateTimeFormat(intlLocale(locale), {
    ...(sameDay ? {} : { day: "numeric", month: "long" }),
    hour: "2-digit",
    minute: "2-digit",
    timeZone: STORE_TIME_ZONE,
    timeZoneName: "short",
  }).format(date);
}
