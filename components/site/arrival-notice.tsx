"use client";

import { useSearchParams } from "next/navigation";
import { useSyncExternalStore } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";

const PARAM = "arrived";
const NOTICES = ["accountCreated"] as const;
type Arrival = (typeof NOTICES)[number];

/** `path` with the notice the next page shows on arrival (`?arrived=accountCreated`), its query and fragment kept. */
export function withArrivalNotice(path: string, notice: Arrival): string {
  const url = new URL(path, "http://x");
  url.searchParams.set(PARAM, notice);
  return `${url.pathname}${url.search}${url.hash}`;
}

const subscribe = () => () => {};

/**
 * Says on whatever page the shopper lands that what they just did worked (the sign-up, which
 * ends on the page they were going to). A status region: empty in the server's markup and filled
 * once the page runs, so screen readers announce it rather than skip it as page content.
 */
export function ArrivalNotice() {
  const { t } = useI18n();
  const arrived = useSearchParams().get(PARAM);
  const running = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const notice = NOTICES.find((n) => n === arrived);
  if (!notice) return null;
  return (
    <section aria-label={t.common.arrival.label} className="mx-auto w-full max-w-5xl px-4 pt-4">
      <p
        role="status"
        className={running ? "rounded-md border border-emerald-500/60 bg-emerald-950/60 px-4 py-3 text-emerald-100" : undefined}
      >
        {running ? t.common.arrival[notice] : null}
      </p>
    </section>
  );
}
