import type { PluralForms } from "../format";

type MessageTree = { [key: string]: string | PluralForms | MessageTree };

/** The English tree must have exactly the Russian tree's keys, so no text is missing in either. */
type SameShape<T> = { [K in keyof T]: T[K] extends string ? string : SameShape<T[K]> };

export function defineMessages<T extends MessageTree>(messages: { ru: T; en: SameShape<T> }) {
  return messages;
}
