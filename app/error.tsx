"use client";

import Link from "next/link";
import { useEffect } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button, buttonClass } from "@/components/ui/button";

// A page that failed on the server or in the browser; the header and footer stay. Every page loads
// this boundary, so it keeps to what it needs (no lib/i18n/format for one placeholder).
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useI18n();
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : null;
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <h1 className="text-2xl font-bold text-white">{t.common.error.title}</h1>
      <p className="mt-3 text-slate-300">{t.common.error.body}</p>
      {digest && <p className="mt-2 font-mono text-sm text-slate-400">{t.common.error.reference.replace("{digest}", digest)}</p>}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button onClick={() => retry()}>{t.common.retry}</Button>
        <Link href="/" className={buttonClass("secondary")}>
          {t.common.error.home}
        </Link>
      </div>
    </main>
  );
}
