import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/account/auth-card";
import { SignUpForm } from "@/components/account/sign-up-form";
import { linkClass } from "@/components/account/styles";
import { getSessionUser } from "@/lib/auth/session";
import { getMessages } from "@/lib/i18n/server";
import { safeReturnPath } from "@/lib/schemas/account";
import { signUpAction } from "./actions";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.account.signUp.title, robots: { index: false } };
}

export default async function SignUpPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const raw = params.callbackUrl;
  const callbackUrl = safeReturnPath(Array.isArray(raw) ? raw[0] : raw);
  if (await getSessionUser()) redirect(callbackUrl);
  const { t } = await getMessages();
  const signInHref = `/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`;
  return (
    <AuthCard
      title={t.account.signUp.title}
      lead={t.account.signUp.lead}
      footer={
        <>
          {t.account.signUp.haveAccount}{" "}
          <Link href={signInHref} className={linkClass}>
            {t.account.signUp.signInLink}
          </Link>
        </>
      }
    >
      <SignUpForm action={signUpAction} callbackUrl={callbackUrl} signInHref={signInHref} />
    </AuthCard>
  );
}
