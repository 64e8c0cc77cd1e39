import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { getMessages } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.common.notFound.title };
}

export default async function NotFound() {
  const { t } = await getMessages();
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <p className="text-5xl font-black text-sky-300">404</p>
      <h1 className="mt-4 text-2xl font-bold text-white">{t.common.notFound.title}</h1>
      <p className="mt-3 text-slate-300">{t.common.notFound.body}</p>
      <Link href="/" className={buttonClass("primary", "mt-8")}>
        {t.common.notFound.home}
      </Link>
    </main>
  );
}
