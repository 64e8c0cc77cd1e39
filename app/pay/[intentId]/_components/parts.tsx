import Link from "next/link";
import type { Locale } from "@/lib/i18n/config";
import { format, formatStoreTime as formatTime } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";
import { maskEmail } from "@/lib/orders/mask-email";
import { deliveredBy } from "@/lib/orders/progress";
import type { IntentView } from "@/lib/services/intent-lifecycle";
import { paymentPagePath } from "@/lib/payments/paths";
import { regionName } from "@/lib/i18n/regions";
import { ForgetSettledOrder } from "./forget-settled-order";

type T = Messages["pay"];

export { formatTime };

export function SandboxBanner({ t }: { t: T }) {
  return (
    <div role="note" className="mb-6 rounded-lg border-2 border-dashed border-amber-400 bg-amber-950/60 px-4 py-3 text-amber-100">
      <p className="text-sm font-bold tracking-wider text-amber-300 uppercase">{t.sandbox.label}</p>
      <p className="mt-1 text-sm">{t.sandbox.text}</p>
    </div>
  );
}

/** The game's name in the shopper's language. */
export const gameTitleOf = (view: IntentView, locale: Locale) => (locale === "ru" ? (view.gameTitleRu ?? view.gameTitle) : view.gameTitle);

export function OrderSummary({ view, t, locale }: { view: IntentView; t: T; locale: Locale }) {
  const gameTitle = gameTitleOf(view, locale);
  return (
    <section aria-labelledby="order-heading" className="rounded-lg border border-slate-800 bg-slate-900/60 p-5">
      <h2 id="order-heading" className="text-sm font-semibold tracking-wide text-slate-400 uppercase">
        {t.order.heading}
      </h2>
      {view.kind === "gift" ? (
        <>
          <p className="mt-2 text-xl font-semibold text-slate-50">{gameTitle}</p>
          <ul className="mt-2 space-y-1 text-slate-300">
            <li>{t.order.gift}</li>
            {view.edition && view.edition !== view.gameTitle ? <li>{format(t.order.edition, { edition: view.edition })}</li> : null}
            <li>{format(t.order.region, { region: view.giftRegion ? regionName(view.giftRegion, locale) : "" })}</li>
            {view.recipientSteamId ? (
              <li>
                {t.order.recipient}: <span className="font-mono break-all">{view.recipientSteamId}</span>
              </li>
            ) : null}
          </ul>
        </>
      ) : (
        <>
          <p className="mt-2 text-xl font-semibold text-slate-50">{view.gearTitle}</p>
          <ul className="mt-2 space-y-1 text-slate-300">
            <li>{format(t.order.gear, { game: gameTitle })}</li>
            <li>
              {t.order.account}: <span className="font-mono break-all">{view.account}</span>
            </li>
          </ul>
        </>
      )}
      <p className="mt-3 text-sm text-slate-400">{format(t.order.receipt, { email: maskEmail(view.email) })}</p>
    </section>
  );
}

const TONE = {
  paid: "border-emerald-500/60 bg-emerald-950/50",
  fulfilled: "border-emerald-500/60 bg-emerald-950/50",
  canceled: "border-slate-600 bg-slate-900/60",
  expired: "border-amber-500/60 bg-amber-950/40",
  requires_payment: "border-sky-500/60 bg-sky-950/40",
  refunded: "border-slate-600 bg-slate-900/60",
} as const;

/**
 * Where the intent stands, and the way back: the partner's own page when it gave one, else the
 * store's: the game (or the gear page) to try again after a decline or expiry, and the home page.
 */
export function Outcome({ view, t, locale }: { view: IntentView; t: T; locale: Locale }) {
  const now = new Date();
  const when = (d: Date | null) => (d ? formatTime(d, locale, now) : "");
  const texts = {
    paid: format(t.outcome.paid.text, { time: when(view.paidAt) }),
    fulfilled: format(t.outcome.fulfilled.text, { paid: when(view.paidAt), time: when(view.fulfilledAt) }),
    canceled: format(t.outcome.canceled.text, { time: when(view.canceledAt) }),
    refunded: format(t.outcome.refunded.text, { paid: when(view.paidAt), time: when(view.refundedAt) }),
    expired: format(t.outcome.expired.text, { time: when(view.expiredAt ?? view.expiresAt) }),
    requires_payment: format(t.outcome.requires_payment.text, { time: when(view.expiresAt) }),
  };
  const back = view.status === "paid" || view.status === "fulfilled" ? view.successUrl : view.failureUrl;
  const again = view.status === "canceled" || view.status === "expired";
  const product =
    view.kind === "gift"
      ? { href: `/games/${view.appId}`, label: format(t.outcome.backToGame, { game: gameTitleOf(view, locale) }) }
      : { href: `/gear?platform=${view.appId}`, label: t.outcome.backToGear };
  const button = "rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800";
  const secondary = "rounded-md border border-slate-600 px-4 py-2 font-medium text-slate-100 hover:border-slate-400 hover:bg-slate-800";
  return (
    <section aria-labelledby="outcome-heading" className={`rounded-lg border p-5 ${TONE[view.status]}`}>
      <h2 id="outcome-heading" className="text-2xl font-bold text-slate-50">
        {t.outcome[view.status].title}
      </h2>
      <p className="mt-2 text-slate-200">{texts[view.status]}</p>
      <p className="mt-4 flex flex-wrap gap-3">
        {view.status === "requires_payment" ? (
          <Link prefetch={false} href={paymentPagePath(view.id)} className={button}>
            {t.outcome.toPayment}
          </Link>
        ) : back ? (
          // A URL the partner gave when creating the intent, validated then (https only).
          <a href={back} className={button}>
            {t.outcome.backToPartner}
          </a>
        ) : (
          <>
            {again ? (
              <Link prefetch={false} href={product.href} className={button}>
                {product.label}
              </Link>
            ) : null}
            <Link prefetch={false} href="/" className={again ? secondary : button}>
              {t.outcome.backToStore}
            </Link>
          </>
        )}
      </p>
      {view.status === "requires_payment" ? null : <ForgetSettledOrder intentId={view.id} kind={view.kind} appId={view.appId} />}
    </section>
  );
}

/**
 * After a payment: who delivers and how soon, honestly by this delivery's provider, and the signed
 * order link, the same one the receipt carries, to follow it live.
 */
export function WhatNext({ view, t, orderHref }: { view: IntentView; t: T; orderHref: string }) {
  const bot = deliveredBy(view.deliveryProvider) === "bot";
  const text = view.kind === "gift" ? (bot ? t.next.giftByBot : t.next.giftByPerson) : bot ? t.next.gearByBot : t.next.gearByPerson;
  const underWay = view.status === "paid";
  return (
    <section aria-labelledby="next-heading" className="rounded-lg border border-slate-800 bg-slate-900/60 p-5">
      <h2 id="next-heading" className="text-sm font-semibold tracking-wide text-slate-400 uppercase">
        {t.next.heading}
      </h2>
      {underWay ? (
        <>
          <p className="mt-2 text-slate-200">{text}</p>
          <p className="mt-2 text-slate-300">{t.next.refundPromise}</p>
        </>
      ) : null}
      <p className="mt-4">
        <Link
          prefetch={false}
          href={orderHref}
          className="inline-block rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800"
        >
          {underWay ? t.next.follow : t.next.order}
        </Link>
      </p>
    </section>
  );
}
