"use client";

import { useQuery } from "@tanstack/react-query";
import { LocalTime } from "@/components/account/local-time";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format } from "@/lib/i18n/format";
import { describeTimeline, isInProgress, orderHeadline, type DeliveredBy, type OrderProgress, type Tone } from "@/lib/orders/progress";
import { ORDER_POLL_MS, orderProgressQueryOptions } from "@/lib/queries/orders";

const BOX: Record<Tone, string> = {
  done: "border-emerald-500/60 bg-emerald-950/50",
  waiting: "border-sky-500/60 bg-sky-950/40",
  problem: "border-amber-500/60 bg-amber-950/40",
  money: "border-slate-500 bg-slate-900/60",
};

const DOT: Record<Tone, string> = {
  done: "bg-emerald-400",
  waiting: "bg-sky-400",
  problem: "bg-amber-400",
  money: "bg-slate-300",
};

/**
 * Where the order stands and its timeline, refreshed every few seconds while it is on its way.
 * Polling the page's small JSON route with TanStack Query (already on every page) costs a few
 * hundred bytes a tick; router.refresh() would re-render and resend the whole page each time.
 */
export function LiveProgress({
  intentId,
  linkToken,
  kind,
  by,
  initial,
}: {
  intentId: string;
  linkToken: string | null;
  kind: "gift" | "gear";
  by: DeliveredBy;
  initial: OrderProgress;
}) {
  const { t } = useI18n();
  const m = t.orders;
  const { data, isError } = useQuery({
    ...orderProgressQueryOptions(intentId, linkToken),
    initialData: initial,
    refetchInterval: (query) => (query.state.data && isInProgress(query.state.data) ? ORDER_POLL_MS : false),
    // A failed tick is retried by the next one.
    retry: false,
  });
  const headline = orderHeadline(data, by, m);
  // A step waited on is done once a later one follows it.
  const steps = describeTimeline(data.timeline, kind, m).map((step, i, all) =>
    step.tone === "waiting" && i < all.length - 1 ? { ...step, tone: "done" as const } : step,
  );
  // Steps that arrived after the page loaded, each announced once as it is appended.
  const fresh = steps.slice(describeTimeline(initial.timeline, kind, m).length);
  const live = isInProgress(data);

  return (
    <section aria-labelledby="progress-heading" className={`rounded-lg border p-5 ${BOX[headline.tone]}`}>
      <h2 id="progress-heading" className="text-sm font-semibold tracking-wide text-slate-300 uppercase">
        {m.progressHeading}
      </h2>
      <p className="mt-2 text-2xl font-bold text-slate-50">{headline.title}</p>
      <p className="mt-1 text-slate-200">{headline.text}</p>
      <ol className="mt-5 space-y-4 border-l border-slate-600 pl-5">
        {steps.map((step, i) => (
          <li key={`${step.at}-${i}`} className="relative">
            <span
              aria-hidden="true"
              className={`absolute top-1.5 -left-[1.6rem] h-2.5 w-2.5 rounded-full ring-4 ring-slate-950 ${DOT[step.tone]}`}
            />
            <p className="font-medium text-slate-50">{step.title}</p>
            {step.detail ? <p className="text-sm text-slate-300">{step.detail}</p> : null}
            <p className="text-sm text-slate-400">
              <LocalTime value={step.at} />
            </p>
          </li>
        ))}
      </ol>
      {live ? <p className="mt-4 text-sm text-slate-300">{m.live.note}</p> : null}
      {isError && live ? (
        <p role="status" className="mt-2 text-sm text-amber-200">
          {m.live.offline}
        </p>
      ) : null}
      <div aria-live="polite" className="sr-only">
        {fresh.map((step, i) => (
          <p key={`${step.at}-${i}`}>{format(m.live.announce, { step: step.title })}</p>
        ))}
      </div>
    </section>
  );
}
