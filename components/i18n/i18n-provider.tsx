"use client";

import { createContext, useContext } from "react";
import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";

const I18nContext = createContext<{ locale: Locale; t: Messages } | null>(null);

/**
 * Client components read the request's language from here. The server decides it and hands over
 * that language's texts as data, so the browser's script carries neither the other language nor the
 * texts at all (they arrive once, in the page's payload). The root layout provides `common`; a page
 * or layout adds the namespaces its own client components read (pickMessages), and a provider keeps
 * what the ones above it gave.
 */
export function I18nProvider({ locale, messages, children }: { locale: Locale; messages: Partial<Messages>; children: React.ReactNode }) {
  const parent = useContext(I18nContext);
  const t = (parent ? { ...parent.t, ...messages } : messages) as Messages;
  return <I18nContext.Provider value={{ locale, t }}>{children}</I18nContext.Provider>;
}

export function useI18n(): { locale: Locale; t: Messages } {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useI18n needs an I18nProvider above it");
  return value;
}
