import Link from "next/link";
import { getMessages } from "@/lib/i18n/server";

// One page for an unknown id, a wrong or missing signed link and someone else's order alike.
export default async function OrderNotFound() {
  const { t } = await getMessages();
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">{t.orders.notFound.title}</h1>
      <p className="mt-3 text-slate-300">{t.orders.notFound.text}</p>
      <p className="mt-6 flex flex-wrap gap-3">
        <Link href="/" className="rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800">
          {t.pay.outcome.backToStore}
        </Link>
        <Link
          href="/sign-in?callbackUrl=%2Faccount%23orders"
          className="rounded-md border border-slate-600 px-4 py-2 font-medium text-slate-200 hover:border-slate-400"
        >
          {t.orders.toAccount}
        </Link>
      </p>
    </main>
  );
}
