import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/account/auth-card";
import { SignInForm, type SignInNotice } from "@/components/account/sign-in-form";
import { linkClass } from "@/components/account/styles";
import { getSessionUser } from "@/lib/auth/session";
import { getMessages } from "@/lib/i18n/server";
import { SIGN_IN_ERRORS } from "@/lib/auth/sign-in-errors";
import { safeReturnPath } from "@/lib/schemas/account";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.account.signIn.title, robots: { index: false } };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** What the page opens with: next-auth's `error` (after a sign-in it handled itself) or our `notice`. */
function noticeFrom(params: Awaited<SearchParams>): SignInNotice | null {
  const notice = first(params.notice);
  if (notice === "signedUp" || notice === "signedOut") return notice;
  const error = first(params.error);
  if (!error) return null;
  if (error === SIGN_IN_ERRORS.invalid) return "invalid";
  if (error === SIGN_IN_ERRORS.tooMany) return "tooMany";
  return error === "SessionRequired" ? "signedOut" : "unavailable";
}

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(first(params.callbackUrl));
  if (await getSessionUser()) redirect(callbackUrl);
  const { t } = await getMessages();
  return (
    <AuthCard
      title={t.account.signIn.title}
      lead={t.account.signIn.lead}
      footer={
        <>
          {t.account.signIn.noAccount}{" "}
          <Link href={`/sign-up?callbackUrl=${encodeURIComponent(callbackUrl)}`} className={linkClass}>
            {t.account.signIn.signUpLink}
          </Link>
        </>
      }
    >
      <SignInForm callbackUrl={callbackUrl} notice={noticeFrom(params)} />
    </AuthCard>
  );
}
