"use client";

import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";
import type { StorePricing } from "@/lib/money";
import { I18nProvider } from "./i18n/i18n-provider";
import { StorePricingProvider } from "./store-pricing";

/** What every page's client components read: the language and its texts, and the store's pricing. */
export function Providers({
  locale,
  messages,
  pricing,
  children,
}: {
  locale: Locale;
  messages: Partial<Messages>;
  pricing: StorePricing;
  children: React.ReactNode;
}) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <StorePricingProvider value={pricing}>{children}</StorePricingProvider>
    </I18nProvider>
  );
}
