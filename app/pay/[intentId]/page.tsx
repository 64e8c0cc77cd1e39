import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AmountTable } from "@/components/orders/amount-table";
import { getDb } from "@/lib/db/client";
import { intlLocale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { formatRub } from "@/lib/money";
import { paymentProvider } from "@/lib/payments";
import { findIntentView } from "@/lib/services/intent-lifecycle";
import { Countdown } from "./_components/countdown";
import { OrderSummary, Outcome, SandboxBanner, formatTime } from "./_components/parts";
import { paymentDeclinePath, paymentSubmitPath } from "@/lib/payments/paths";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  // A payment link is personal: search engines must not list it.
  return { title: t.pay.title, robots: { index: false, follow: false } };
}

// The hosted payment page (the `paymentUrl` the API hands out): what is bought, the amount, the
// time left, and Pay / Decline (which asks first, at /pay/{id}/decline). Plain forms and links, so
// it works without JavaScript.
export default async function PaymentPage({ params }: { params: Promise<{ intentId: string }> }) {
  const { intentId } = await params;
  const [{ locale, t }, view] = await Promise.all([getMessages(), findIntentView(getDb(), intentId)]);
  if (!view) notFound();
  const provider = paymentProvider();
  const payable = view.status === "requires_payment";

  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-8 sm:py-12">
      {provider.sandbox ? <SandboxBanner t={t.pay} /> : null}
      <h1 className="text-3xl font-bold tracking-tight">{t.pay.title}</h1>
      <div className="mt-6 space-y-4">
        {payable ? null : <Outcome view={view} t={t.pay} locale={locale} />}
        <OrderSummary view={view} t={t.pay} locale={locale} />
        <AmountTable amounts={view} t={t.pay} locale={locale} />
        {payable ? (
          <section aria-labelledby="pay-heading" className="rounded-lg border border-slate-800 bg-slate-900/60 p-5">
            <h2 id="pay-heading" className="sr-only">
              {t.pay.actions.heading}
            </h2>
            <p className="text-slate-300">{format(t.pay.deadline.payBefore, { time: formatTime(view.expiresAt, locale, new Date()) })}</p>
            <Countdown secondsLeft={view.secondsLeft} />
            <div className="mt-5 flex flex-col gap-3 sm:flex-row">
              <form method="post" action={paymentSubmitPath(view.id)} className="flex flex-1">
                <button
                  type="submit"
                  name="choice"
                  value="pay"
                  className="flex-1 rounded-md bg-emerald-700 px-5 py-3 text-lg font-semibold text-white hover:bg-emerald-800"
                >
                  {format(t.pay.actions.pay, { amount: formatRub(view.paymentAmount, intlLocale(locale)) })}
                </button>
              </form>
              {/* Declining cancels the order for good, so it asks first, on a page of its own rather
                  than a script's confirm(): that works without JavaScript, in the page's language,
                  and keyboard and screen-reader users meet an ordinary page. */}
              <Link
                prefetch={false}
                href={paymentDeclinePath(view.id)}
                className="rounded-md border border-slate-600 px-5 py-3 text-center font-medium text-slate-200 hover:border-slate-400 hover:bg-slate-800"
              >
                {t.pay.actions.decline}
              </Link>
            </div>
            {provider.sandbox ? <p className="mt-3 text-sm text-amber-200">{t.pay.actions.sandboxHint}</p> : null}
          </section>
        ) : null}
      </div>
    </main>
  );
}
