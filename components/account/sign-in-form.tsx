"use client";

import { useI18n } from "@/components/i18n/i18n-provider";
import { signInWithPassword } from "@/lib/queries/auth-client";
import { signInRequestSchema } from "@/lib/schemas/account";
import { CredentialsForm } from "./credentials-form";

export type SignInNotice = "invalid" | "tooMany" | "unavailable" | "signedUp" | "signedOut";

export function SignInForm({ callbackUrl, notice }: { callbackUrl: string; notice?: SignInNotice | null }) {
  const { t } = useI18n();
  return (
    <CredentialsForm<SignInNotice>
      idPrefix="sign-in"
      schema={signInRequestSchema}
      emailAutoComplete="username"
      password={{ autoComplete: "current-password" }}
      submitLabel={t.account.signIn.submit}
      submittingLabel={t.account.signIn.submitting}
      initialNotice={notice}
      noticeText={(n) => (n === "signedOut" ? t.account.errors.signedOut : t.account.signIn[n])}
      noticeId="sign-in-notice"
      submit={async ({ email, password }) => {
        const outcome = await signInWithPassword(email, password);
        if (!outcome.ok) return { kind: "notice", notice: outcome.error, focusPassword: true };
        // A full load, not a client transition: the header, the query cache and every server
        // component must start over as the signed-in shopper.
        window.location.assign(callbackUrl);
        return { kind: "leaving" };
      }}
    />
  );
}
