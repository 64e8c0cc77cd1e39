"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";
import type { StorePricing } from "@/lib/money";
import { I18nProvider } from "./i18n/i18n-provider";
import { StorePricingProvider } from "./store-pricing";

export function Providers({
  locale,
  messages,
  pricing,
  children,
}: {
  locale: Locale;
  messages: Messages;
  pricing: StorePricing;
  children: React.ReactNode;
}) {
  // One client per browser tab; created in state so a server render never shares it between visitors.
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 30_000,
            retry: (count, error) => count < 2 && !(error instanceof Error && "status" in error && Number(error.status) < 500),
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider locale={locale} messages={messages}>
        <StorePricingProvider value={pricing}>{children}</StorePricingProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}
