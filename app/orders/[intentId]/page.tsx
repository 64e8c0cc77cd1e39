import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LocalTime } from "@/components/account/local-time";
import { AmountTable } from "@/components/orders/amount-table";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { format } from "@/lib/i18n/format";
import { regionName } from "@/lib/i18n/regions";
import { getMessages } from "@/lib/i18n/server";
import { maskEmail } from "@/lib/orders/mask-email";
import { deliveredBy } from "@/lib/orders/progress";
import { paymentPagePath } from "@/lib/payments/paths";
import { findOrderForViewer } from "@/lib/services/orders";
import { LiveProgress } from "./_components/live-progress";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  // An order link is personal: search engines must not list it.
  return { title: t.orders.title, robots: { index: false, follow: false } };
}

const card = "rounded-lg border border-slate-800 bg-slate-900/60 p-5";
const cardHeading = "text-sm font-semibold tracking-wide text-slate-400 uppercase";

// The shopper's order page: reached by the signed link in every e-mail and on the payment result
// page, or by the signed-in owner from their account. Anyone else gets the not-found page.
export default async function OrderPage({ params, searchParams }: { params: Promise<{ intentId: string }>; searchParams: SearchParams }) {
  const [{ intentId }, query, user, { locale, t }] = await Promise.all([params, searchParams, getSessionUser(), getMessages()]);
  const linkToken = typeof query.t === "string" ? query.t : null;
  const order = await findOrderForViewer(getDb(), intentId, { linkToken, userId: user?.id });
  if (!order) notFound();
  const { view } = order;
  const m = t.orders;
  const gameTitle = locale === "ru" ? (view.gameTitleRu ?? view.gameTitle) : view.gameTitle;

  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight">
        {m.title}: {view.kind === "gift" ? gameTitle : view.gearTitle}
      </h1>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-400">
        <div className="flex flex-wrap gap-x-2">
          <dt>{m.number}</dt>
          <dd className="font-mono break-all text-slate-300">{view.id}</dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt>{m.placed}</dt>
          <dd className="text-slate-300">
            <LocalTime value={view.createdAt.toISOString()} />
          </dd>
        </div>
      </dl>

      <div className="mt-6 space-y-4">
        <LiveProgress
          intentId={view.id}
          // Only a proof that checked out is passed on; an owner's requests carry their session instead.
          linkToken={order.bySignedLink ? linkToken : null}
          kind={view.kind}
          by={deliveredBy(view.deliveryProvider)}
          initial={{ status: view.status, deliveryStatus: view.deliveryStatus, deliveryStep: view.deliveryStep, timeline: order.timeline }}
        />
        {view.status === "requires_payment" ? (
          <p>
            <Link
              prefetch={false}
              href={paymentPagePath(view.id)}
              className="inline-block rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800"
            >
              {m.toPayment}
            </Link>
          </p>
        ) : null}

        <section aria-labelledby="bought-heading" className={card}>
          <h2 id="bought-heading" className={cardHeading}>
            {m.boughtHeading}
          </h2>
          {view.kind === "gift" ? (
            <>
              <p className="mt-2 text-xl font-semibold text-slate-50">{gameTitle}</p>
              <ul className="mt-1 space-y-1 text-slate-300">
                <li>{m.bought.gift}</li>
                {view.edition && view.edition !== view.gameTitle ? <li>{format(m.bought.edition, { edition: view.edition })}</li> : null}
              </ul>
            </>
          ) : (
            <>
              <p className="mt-2 text-xl font-semibold text-slate-50">{view.gearTitle}</p>
              <p className="mt-1 text-slate-300">{format(m.bought.gear, { game: gameTitle })}</p>
            </>
          )}
        </section>

        <section aria-labelledby="recipient-heading" className={card}>
          <h2 id="recipient-heading" className={cardHeading}>
            {m.recipientHeading}
          </h2>
          <dl className="mt-3 space-y-3 text-slate-300">
            {view.kind === "gift" ? (
              <>
                <Field label={m.recipient.inviteUrl} value={view.inviteUrl ?? ""} mono />
                {view.recipientSteamId ? <Field label={m.recipient.friendAccount} value={view.recipientSteamId} mono /> : null}
                <Field label={m.recipient.region} value={regionName(view.giftRegion ?? "", locale)} />
              </>
            ) : (
              <>
                <Field label={m.recipient.account} value={view.account ?? ""} mono />
                {view.tradeLink ? <Field label={m.recipient.tradeLink} value={view.tradeLink} mono /> : null}
              </>
            )}
            <Field label={m.recipient.email} value={maskEmail(view.email)} />
          </dl>
        </section>

        <AmountTable amounts={view} t={t.pay} locale={locale} />

        {user ? (
          <p>
            <Link prefetch={false} href="/account#orders" className="text-sky-300 underline underline-offset-2 hover:text-sky-200">
              {m.toAccount}
            </Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}

function Field({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div>
      <dt className="text-sm text-slate-400">{label}</dt>
      <dd className={`mt-0.5 break-all text-slate-100 ${mono ? "font-mono text-sm" : ""}`}>{value}</dd>
    </div>
  );
}
