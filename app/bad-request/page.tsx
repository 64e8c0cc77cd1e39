// The store's answer to a path whose percent-encoding does not decode: lib/http/path-guard.ts sends
// such a request here, logs it and makes its status 400. Asked for by its own path, it is not found.
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { buttonClass } from "@/components/ui/button";
import { BAD_PATH_HEADER } from "@/lib/http/request-marks";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.common.badRequest.title, robots: { index: false } };
}

export default async function BadRequest() {
  const requestHeaders = await headers();
  if (requestHeaders.get(BAD_PATH_HEADER) !== "1") notFound();
  const { t } = await getMessages();
  const m = t.common.badRequest;
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <p className="text-5xl font-black text-sky-300">400</p>
      <h1 className="mt-4 text-2xl font-bold text-white">{m.title}</h1>
      <p className="mt-3 text-slate-300">{m.body}</p>
      <p className="mt-2 font-mono text-sm text-slate-400">
        {format(m.reference, { requestId: requestHeaders.get("x-request-id") ?? "" })}
      </p>
      <Link href="/" className={buttonClass("primary", "mt-8")}>
        {m.home}
      </Link>
    </main>
  );
}
