"use client";

import { createContext, useContext } from "react";
import type { Locale } from "@/lib/i18n/config";
import { messages, type Messages } from "@/lib/i18n/messages";

const I18nContext = createContext<{ locale: Locale; t: Messages } | null>(null);

/** Client components read the request's language from here; the server layout decides it. */
export function I18nProvider({ locale, children }: { locale: Locale; children: React.ReactNode }) {
  return <I18nContext.Provider value={{ locale, t: messages[locale] }}>{children}</I18nContext.Provider>;
}

export function useI18n(): { locale: Locale; t: Messages } {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useI18n needs an I18nProvider above it");
  return value;
}
