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

/** A moment as the store states it: in Moscow time, the zone printed beside it ("12 мая, 14:05 MSK"). */
export function formatStoreTime(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale(locale), {
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Europe/Moscow",
    timeZoneName: "short",
  }).format(date);
}
