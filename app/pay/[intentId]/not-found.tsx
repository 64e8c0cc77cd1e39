import Link from "next/link";
import { getMessages } from "@/lib/i18n/server";

export default async function PaymentNotFound() {
  const { t } = await getMessages();
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">{t.pay.notFound.title}</h1>
      <p className="mt-3 text-slate-300">{t.pay.notFound.text}</p>
      <p className="mt-6">
        <Link href="/" className="rounded-md bg-sky-700 px-4 py-2 font-medium text-white hover:bg-sky-800">
          {t.pay.outcome.backToStore}
        </Link>
      </p>
    </main>
  );
}
