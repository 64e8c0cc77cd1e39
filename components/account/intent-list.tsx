"use client";

import Link from "next/link";
import { useI18n } from "@/components/i18n/i18n-provider";
import { intlLocale } from "@/lib/i18n/config";
import { format, plural } from "@/lib/i18n/format";
import type { IntentStatus } from "@/lib/intents/states";
import { formatRub } from "@/lib/money";
import { LocalTime } from "./local-time";
import { linkClass, primaryButtonClass } from "./styles";
import { orderPagePath } from "@/lib/orders/paths";
import { paymentPagePath } from "@/lib/payments/paths";

export interface IntentCallbackRow {
  id: string;
  eventType: string;
  status: "pending" | "delivered" | "stopped" | "failed";
  attemptCount: number;
  nextAttemptAt: string;
  lastResponseStatus: number | null;
  lastError: string | null;
}

export interface IntentRow {
  id: string;
  kind: "gift" | "gear";
  /** What the shopper should read: an unpaid intent past its time is shown expired before the sweep marks it. */
  status: IntentStatus;
  payable: boolean;
  gameTitle: string;
  itemTitle: string | null;
  intentAmount: number;
  discountAmount: number;
  feeAmount: number;
  paymentAmount: number;
  /** A gift's friend (SteamID64, or the invite link when not decoded) or the gear's account. */
  recipient: string | null;
  /** A gift's region, by name. */
  region: string | null;
  /** The visit's campaign tags, in the order source, medium, campaign, content, term. */
  campaign: { key: "utm_source" | "utm_medium" | "utm_campaign" | "utm_content" | "utm_term"; value: string }[];
  tokenName: string;
  tokenPurpose: "api" | "storefront";
  hasCallbackUrl: boolean;
  createdAt: string;
  expiresAt: string;
  paidAt: string | null;
  fulfilledAt: string | null;
  canceledAt: string | null;
  expiredAt: string | null;
  callbacks: IntentCallbackRow[];
  /** The order page's address when the owner's own path would not open it (a guest's order: its signed link). */
  orderHref?: string;
}

const statusClass: Record<IntentStatus, string> = {
  requires_payment: "border-amber-400/60 bg-amber-950/60 text-amber-100",
  paid: "border-sky-400/60 bg-sky-950/60 text-sky-100",
  fulfilled: "border-emerald-400/60 bg-emerald-950/60 text-emerald-100",
  canceled: "border-slate-500 bg-slate-800 text-slate-200",
  expired: "border-slate-500 bg-slate-800 text-slate-200",
  refunded: "border-slate-500 bg-slate-800 text-slate-200",
};

const callbackClass: Record<IntentCallbackRow["status"], string> = {
  pending: "text-amber-200",
  delivered: "text-emerald-300",
  stopped: "text-slate-300",
  failed: "text-red-300",
};

export function IntentList({
  intents,
  olderHref,
  newestHref,
  emptyText,
}: {
  intents: IntentRow[];
  olderHref: string | null;
  newestHref: string | null;
  /** Instead of "no orders yet". */
  emptyText?: string;
}) {
  const { locale, t } = useI18n();
  const m = t.account.intents;
  const rub = (kopecks: number) => formatRub(kopecks, intlLocale(locale));
  // A fee on top was added to the price; an included one is part of it (fee mode `included`).
  const breakdown = (i: IntentRow) =>
    [
      format(m.price, { amount: rub(i.intentAmount) }),
      i.discountAmount > 0 ? format(m.discount, { amount: rub(i.discountAmount) }) : null,
      i.feeAmount > 0
        ? format(i.paymentAmount === i.intentAmount - i.discountAmount + i.feeAmount ? m.feeOnTop : m.feeIncluded, {
            amount: rub(i.feeAmount),
          })
        : null,
    ]
      .filter(Boolean)
      .join(" · ");

  if (intents.length === 0 && !newestHref) {
    return (
      <p className="rounded-md border border-dashed border-slate-700 px-4 py-6 text-center text-sm text-slate-300">
        {emptyText ?? m.empty}
      </p>
    );
  }

  return (
    <div>
      <ul className="space-y-3">
        {intents.map((intent) => {
          const times = [
            ["created", intent.createdAt],
            [intent.status === "requires_payment" ? "expires" : null, intent.expiresAt],
            ["paid", intent.paidAt],
            ["fulfilled", intent.fulfilledAt],
            ["canceled", intent.canceledAt],
            ["expired", intent.expiredAt ?? (intent.status === "expired" ? intent.expiresAt : null)],
          ] as const;
          return (
            <li key={intent.id} className="rounded-lg border border-slate-800 bg-slate-900 p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="text-xs font-semibold tracking-wide text-slate-400 uppercase">{m.kind[intent.kind]}</p>
                  <h3 className="font-semibold break-words">{intent.gameTitle}</h3>
                  {intent.itemTitle && intent.itemTitle !== intent.gameTitle ? (
                    <p className="text-sm break-words text-slate-300">{intent.itemTitle}</p>
                  ) : null}
                </div>
                <div className="w-full sm:w-auto sm:text-right">
                  <p className="flex flex-wrap items-center gap-x-3 gap-y-1 sm:justify-end">
                    <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${statusClass[intent.status]}`}>
                      {m.status[intent.status]}
                    </span>
                    <span className="text-lg font-semibold tabular-nums">
                      <span className="sr-only">{m.amount}: </span>
                      {rub(intent.paymentAmount)}
                    </span>
                  </p>
                  <p className="mt-0.5 text-xs text-slate-400 tabular-nums">{breakdown(intent)}</p>
                </div>
              </div>

              <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm lg:grid-cols-3">
                <div className="col-span-2 lg:col-span-1">
                  <dt className="text-slate-400">{m.idLabel}</dt>
                  <dd className="mt-0.5 font-mono text-xs break-all">{intent.id}</dd>
                </div>
                {intent.recipient ? (
                  <div className="col-span-2 lg:col-span-1">
                    <dt className="text-slate-400">{m.recipient[intent.kind]}</dt>
                    <dd className="mt-0.5 font-mono text-xs break-all">{intent.recipient}</dd>
                  </div>
                ) : null}
                {intent.region ? (
                  <div>
                    <dt className="text-slate-400">{m.region}</dt>
                    <dd className="mt-0.5">{intent.region}</dd>
                  </div>
                ) : null}
                <div>
                  <dt className="text-slate-400">{m.via}</dt>
                  <dd className="mt-0.5 break-words">
                    {intent.tokenPurpose === "storefront" ? m.viaStore : format(m.viaToken, { name: intent.tokenName })}
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-400">{m.attribution}</dt>
                  <dd className="mt-0.5 break-words">
                    {intent.campaign.length > 0
                      ? intent.campaign.map(({ key, value }) => `${m.campaign[key]}: ${value}`).join(" · ")
                      : m.noAttribution}
                  </dd>
                </div>
                {times.map(([key, value]) =>
                  key && value ? (
                    <div key={key}>
                      <dt className="text-slate-400">{m[key]}</dt>
                      <dd className="mt-0.5">
                        <LocalTime value={value} />
                      </dd>
                    </div>
                  ) : null,
                )}
              </dl>

              {/* Notifications to a partner's server: nothing to say about an order placed on this site. */}
              {intent.hasCallbackUrl || intent.callbacks.length > 0 ? (
                <div className="mt-3 border-t border-slate-800 pt-3 text-sm">
                  <h4 className="text-slate-400">{m.callbacks}</h4>
                  {intent.callbacks.length === 0 ? (
                    <p className="mt-0.5">{intent.hasCallbackUrl ? m.noCallbacks : m.noCallbackUrl}</p>
                  ) : (
                    <ul className="mt-1 space-y-1">
                      {intent.callbacks.map((callback) => (
                        <li key={callback.id} className="flex flex-wrap items-baseline gap-x-2">
                          <code className="font-mono text-xs text-sky-200">{callback.eventType}</code>
                          <span className={`font-medium ${callbackClass[callback.status]}`}>{m.callbackStatus[callback.status]}</span>
                          <span className="text-slate-300">{plural(locale, callback.attemptCount, m.attempts)}</span>
                          {callback.attemptCount > 0 ? (
                            <span className="text-slate-300">
                              {format(m.lastAnswer, {
                                answer:
                                  callback.lastResponseStatus !== null
                                    ? `HTTP ${callback.lastResponseStatus}`
                                    : (callback.lastError ?? m.noAnswer),
                              })}
                            </span>
                          ) : null}
                          {callback.status === "pending" ? (
                            <span className="text-slate-300">
                              {m.nextAttempt.split("{time}")[0]}
                              <LocalTime value={callback.nextAttemptAt} />
                              {m.nextAttempt.split("{time}")[1]}
                            </span>
                          ) : null}
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              ) : null}

              <p className="mt-4 flex flex-wrap items-center gap-x-5 gap-y-3">
                {intent.payable ? (
                  <Link
                    href={paymentPagePath(intent.id)}
                    aria-label={format(m.payNowLabel, { title: intent.gameTitle })}
                    className={primaryButtonClass}
                  >
                    {m.payNow}
                  </Link>
                ) : null}
                <Link
                  href={intent.orderHref ?? orderPagePath(intent.id)}
                  aria-label={format(m.orderPageLabel, { title: intent.gameTitle })}
                  className={linkClass}
                >
                  {m.orderPage}
                </Link>
              </p>
            </li>
          );
        })}
      </ul>
      {olderHref || newestHref ? (
        <nav aria-label={m.pagination} className="mt-4 flex flex-wrap justify-between gap-3 text-sm">
          {newestHref ? (
            <Link href={newestHref} className={linkClass}>
              ← {m.newest}
            </Link>
          ) : (
            <span />
          )}
          {olderHref ? (
            <Link href={olderHref} className={linkClass}>
              {m.older} →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
