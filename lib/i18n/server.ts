import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { LOCALE_COOKIE, negotiateLocale, type Locale } from "./config";
import { messages, type Messages } from "./messages";

/** The visitor's language for this request (switch cookie, then Accept-Language, then Russian). */
export const getLocale = cache(async (): Promise<Locale> => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  return negotiateLocale(headerList.get("accept-language"), cookieStore.get(LOCALE_COOKIE)?.value);
});

export async function getMessages(): Promise<{ locale: Locale; t: Messages }> {
  const locale = await getLocale();
  return { locale, t: messages[locale] };
}
