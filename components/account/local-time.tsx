"use client";

import { useSyncExternalStore } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { intlLocale } from "@/lib/i18n/config";

const noSubscription = () => () => {};

/**
 * A moment in the reader's own time zone. The server does not know it, so the server's HTML says
 * UTC and the browser re-renders in local time right after hydration (no mismatch warning).
 */
export function LocalTime({ value }: { value: string }) {
  const { locale } = useI18n();
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const date = new Date(value);
  // Intl refuses timeZoneName beside dateStyle/timeStyle, so the server's "UTC" is appended.
  const formatted = new Intl.DateTimeFormat(intlLocale(locale), {
    dateStyle: "medium",
    timeStyle: "short",
    ...(inBrowser ? {} : { timeZone: "UTC" }),
  }).format(date);
  const text = inBrowser ? formatted : `${formatted} UTC`;
  return <time dateTime={value}>{text}</time>;
}
