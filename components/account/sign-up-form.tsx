"use client";

import { withArrivalNotice } from "@/components/site/arrival-notice";
import { useI18n } from "@/components/i18n/i18n-provider";
import { csrfToken, signInWithPassword } from "@/lib/queries/auth-client";
import { PASSWORD_MIN_LENGTH, signUpRequestSchema, type AccountFieldErrors } from "@/lib/schemas/account";
import { loadPasswordEstimator } from "@/lib/schemas/password-strength";
import { CredentialsForm, type CredentialsOutcome } from "./credentials-form";

type SignUpResult = { ok: true } | { ok: false; errors: AccountFieldErrors } | { ok: false; rateLimited: true };
type SignUpNotice = "generic" | "rateLimited";

/**
 * Checks the form with the same schema the server uses, creates the account with `action` (a
 * server action), then signs in with the same credentials.
 */
export function SignUpForm({
  action,
  callbackUrl,
  signInHref,
}: {
  action: (input: { email: string; password: string }) => Promise<SignUpResult>;
  callbackUrl: string;
  signInHref: string;
}) {
  const { t } = useI18n();

  async function signUp(credentials: { email: string; password: string }): Promise<CredentialsOutcome<SignUpNotice>> {
    // The sign-in's CSRF token is fetched while the account is being made (the password hash takes
    // most of that), so the sign-in after it starts at once. Its failure is the sign-in's to report.
    const csrf = csrfToken();
    csrf.catch(() => {});
    let result: SignUpResult;
    try {
      result = await action(credentials);
    } catch {
      return { kind: "notice", notice: "generic" };
    }
    if (!result.ok) return "rateLimited" in result ? { kind: "notice", notice: "rateLimited" } : { kind: "fields", errors: result.errors };
    const signedIn = await signInWithPassword(credentials.email, credentials.password, csrf);
    // The account exists either way; if the sign-in step failed, the sign-in page says so.
    window.location.assign(
      signedIn.ok
        ? withArrivalNotice(callbackUrl, "accountCreated")
        : `${signInHref}${signInHref.includes("?") ? "&" : "?"}notice=signedUp`,
    );
    return { kind: "leaving" };
  }

  return (
    <CredentialsForm<SignUpNotice>
      idPrefix="sign-up"
      schema={signUpRequestSchema}
      emailAutoComplete="email"
      password={{ autoComplete: "new-password", minLength: PASSWORD_MIN_LENGTH, hint: t.account.signUp.passwordHint }}
      submitLabel={t.account.signUp.submit}
      submittingLabel={t.account.signUp.submitting}
      noticeText={(n) => t.account.errors[n]}
      // The strength check's dictionaries are not in the page's first load: fetched while the shopper types.
      prepare={() => void loadPasswordEstimator().catch(() => {})}
      submit={signUp}
    />
  );
}
