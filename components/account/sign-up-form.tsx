"use client";

import { useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { signInWithPassword } from "@/lib/queries/auth-client";
import { accountFieldErrors, PASSWORD_MIN_LENGTH, signUpRequestSchema, type AccountFieldErrors } from "@/lib/schemas/account";
import { Field, describedBy } from "./field";
import { PasswordInput } from "./password-input";
import { inputClass, primaryButtonClass } from "./styles";

type SignUpResult = { ok: true } | { ok: false; errors: AccountFieldErrors } | { ok: false; rateLimited: true };

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
  const [errors, setErrors] = useState<AccountFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  function showFieldErrors(fields: AccountFieldErrors) {
    setErrors(fields);
    setFormError(null);
    (fields.email ? emailRef : passwordRef).current?.focus();
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = signUpRequestSchema.safeParse({ email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") });
    if (!parsed.success) return showFieldErrors(accountFieldErrors(parsed.error));
    setErrors({});
    setFormError(null);
    setPending(true);
    let result: SignUpResult;
    try {
      result = await action(parsed.data);
    } catch {
      setPending(false);
      setFormError(t.account.errors.generic);
      return;
    }
    if (!result.ok) {
      setPending(false);
      if ("rateLimited" in result) return setFormError(t.account.errors.rateLimited);
      return showFieldErrors(result.errors);
    }
    const signedIn = await signInWithPassword(parsed.data.email, parsed.data.password);
    // The account exists either way; if the sign-in step failed, the sign-in page says so.
    window.location.assign(signedIn.ok ? callbackUrl : `${signInHref}${signInHref.includes("?") ? "&" : "?"}notice=signedUp`);
  }

  const errorText = (code?: keyof typeof t.account.errors) => (code ? t.account.errors[code] : undefined);

  // method="post": a submit before hydration must not put the password in the URL (history, logs).
  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5">
      {formError ? (
        <p role="alert" className="rounded-md border border-red-400/60 bg-red-950/60 px-3 py-2 text-sm text-red-100">
          {formError}
        </p>
      ) : null}
      <Field id="sign-up-email" label={t.account.fields.email} error={errorText(errors.email)}>
        <input
          ref={emailRef}
          id="sign-up-email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={describedBy("sign-up-email", { error: errors.email })}
          className={inputClass}
        />
      </Field>
      <Field id="sign-up-password" label={t.account.fields.password} hint={t.account.signUp.passwordHint} error={errorText(errors.password)}>
        <PasswordInput
          ref={passwordRef}
          id="sign-up-password"
          name="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          required
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={describedBy("sign-up-password", { error: errors.password, hint: true })}
        />
      </Field>
      <button type="submit" disabled={pending} className={`${primaryButtonClass} w-full`}>
        {pending ? t.account.signUp.submitting : t.account.signUp.submit}
      </button>
    </form>
  );
}
