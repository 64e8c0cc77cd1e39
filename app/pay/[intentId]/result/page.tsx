import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AmountTable } from "@/components/orders/amount-table";
import { getDb } from "@/lib/db/client";
import { getMessages } from "@/lib/i18n/server";
import { orderLinkPath } from "@/lib/orders/link";
import { paymentProvider } from "@/lib/payments";
import { findIntentView } from "@/lib/services/intent-lifecycle";
import { OrderSummary, Outcome, SandboxBanner, WhatNext } from "../_components/parts";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.pay.resultTitle, robots: { index: false, follow: false } };
}

// Where the payment page sends the buyer when the intent has no successUrl / failureUrl of its own,
// and where a hosted provider returns them to.
export default async function PaymentResultPage({ params }: { params: Promise<{ intentId: string }> }) {
  const { intentId } = await params;
  const [{ locale, t }, view] = await Promise.all([getMessages(), findIntentView(getDb(), intentId)]);
  if (!view) notFound();
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-8 sm:py-12">
      {paymentProvider().sandbox ? <SandboxBanner t={t.pay} /> : null}
      <h1 className="text-3xl font-bold tracking-tight">{t.pay.resultTitle}</h1>
      <div className="mt-6 space-y-4">
        <Outcome view={view} t={t.pay} locale={locale} />
        {view.paidAt ? <WhatNext view={view} t={t.pay} orderHref={orderLinkPath(view.id)} /> : null}
        <OrderSummary view={view} t={t.pay} locale={locale} />
        <AmountTable amounts={view} t={t.pay} locale={locale} />
      </div>
    </main>
  );
}
