import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { intlLocale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { formatRub } from "@/lib/money";
import { paymentProvider } from "@/lib/payments";
import { paymentPagePath, paymentSubmitPath } from "@/lib/payments/paths";
import { findIntentView } from "@/lib/services/intent-lifecycle";
import { SandboxBanner, gameTitleOf } from "../_components/parts";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.pay.decline.title, robots: { index: false, follow: false } };
}

// The payment page's Decline asks here before it cancels the order: a second form, so the question
// needs no JavaScript. An intent that can no longer be declined sends the buyer to the payment
// page, which says where it stands.
export default async function DeclinePaymentPage({ params }: { params: Promise<{ intentId: string }> }) {
  const { intentId } = await params;
  const [{ locale, t }, view] = await Promise.all([getMessages(), findIntentView(getDb(), intentId)]);
  if (!view) notFound();
  if (view.status !== "requires_payment") redirect(paymentPagePath(view.id));
  const title = view.kind === "gift" ? gameTitleOf(view, locale) : (view.gearTitle ?? gameTitleOf(view, locale));

  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-8 sm:py-12">
      {paymentProvider().sandbox ? <SandboxBanner t={t.pay} /> : null}
      <h1 className="text-3xl font-bold tracking-tight">{t.pay.decline.title}</h1>
      <p className="mt-4 text-slate-200">
        {format(t.pay.decline.text, { title, amount: formatRub(view.paymentAmount, intlLocale(locale)) })}
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <form method="post" action={paymentSubmitPath(view.id)} className="flex">
          <button
            type="submit"
            name="choice"
            value="decline"
            className="flex-1 rounded-md bg-red-700 px-5 py-3 font-semibold text-white hover:bg-red-800"
          >
            {t.pay.decline.confirm}
          </button>
        </form>
        <Link
          href={paymentPagePath(view.id)}
          className="rounded-md border border-slate-600 px-5 py-3 text-center font-medium text-slate-200 hover:border-slate-400 hover:bg-slate-800"
        >
          {t.pay.decline.back}
        </Link>
      </div>
    </main>
  );
}
