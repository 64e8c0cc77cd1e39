// /confirm-email - the e-mail confirmation link's page: says what the link would do and offers the
// button (a POST: mail scanners follow links, and must not confirm an address for someone), then
// the outcome. Works without signing in.
import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/account/auth-card";
import { linkClass, primaryButtonClass } from "@/components/account/styles";
import { getDb } from "@/lib/db/client";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { inspectEmailConfirmation, type ConfirmationState } from "@/lib/services/email-confirmation";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const RESULTS = ["confirmed", "already_confirmed", "expired", "invalid"] as const;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.account.confirm.title, robots: { index: false } };
}

export default async function ConfirmEmailPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const { t } = await getMessages();
  const m = t.account.confirm;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const token = first(params.token);
  const result = first(params.result);
  // After the button: the outcome the submit redirected with. Before it: what the link would do.
  const inspected: ConfirmationState = (RESULTS as readonly string[]).includes(result ?? "")
    ? ({ state: result, email: "" } as ConfirmationState)
    : await inspectEmailConfirmation(getDb(), token);
  const { state } = inspected;

  const toAccount = (
    <Link href="/account#email" className={linkClass}>
      {m.toAccount}
    </Link>
  );
  return (
    <AuthCard title={m.title} footer={toAccount}>
      {inspected.state === "ready" ? (
        <form method="post" action="/confirm-email/submit" className="space-y-4">
          <p className="break-words">{format(m.ready, { email: inspected.email })}</p>
          <p className="text-sm text-slate-300">{m.readyNote}</p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className={`${primaryButtonClass} w-full`}>
            {m.submit}
          </button>
        </form>
      ) : state === "confirmed" ? (
        <div role="status" className="space-y-2">
          <p className="font-semibold text-emerald-200">{m.confirmed}</p>
          <p className="text-sm text-slate-300">{m.confirmedNote}</p>
        </div>
      ) : state === "already_confirmed" ? (
        <p role="status">{m.alreadyConfirmed}</p>
      ) : (
        <div role="alert" className="space-y-2">
          <p className="font-semibold text-amber-200">{state === "expired" ? m.expired : m.invalid}</p>
          <p className="text-sm text-slate-300">{m.resendHint}</p>
        </div>
      )}
    </AuthCard>
  );
}
