"use client";

import { useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { signInWithPassword } from "@/lib/queries/auth-client";
import { accountFieldErrors, signInRequestSchema, type AccountFieldErrors } from "@/lib/schemas/account";
import { Field, describedBy } from "./field";
import { PasswordInput } from "./password-input";
import { inputClass, primaryButtonClass } from "./styles";

export type SignInNotice = "invalid" | "tooMany" | "unavailable" | "signedUp" | "signedOut";

export function SignInForm({ callbackUrl, notice }: { callbackUrl: string; notice?: SignInNotice | null }) {
  const { t } = useI18n();
  const [errors, setErrors] = useState<AccountFieldErrors>({});
  const [formError, setFormError] = useState<SignInNotice | null>(notice ?? null);
  const [pending, setPending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = signInRequestSchema.safeParse({ email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") });
    if (!parsed.success) {
      const fields = accountFieldErrors(parsed.error);
      setErrors(fields);
      setFormError(null);
      (fields.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setErrors({});
    setFormError(null);
    setPending(true);
    const outcome = await signInWithPassword(parsed.data.email, parsed.data.password);
    if (outcome.ok) {
      // A full load, not a client transition: the header, the query cache and every server
      // component must start over as the signed-in shopper.
      window.location.assign(callbackUrl);
      return;
    }
    setPending(false);
    setFormError(outcome.error);
    passwordRef.current?.focus();
  }

  const errorText = (code?: keyof typeof t.account.errors) => (code ? t.account.errors[code] : undefined);
  const noticeText = formError
    ? formError === "signedOut"
      ? t.account.errors.signedOut
      : t.account.signIn[formError]
    : null;

  // method="post": a submit before hydration must not put the password in the URL (history, logs).
  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5" aria-describedby={noticeText ? "sign-in-notice" : undefined}>
      {noticeText ? (
        <p id="sign-in-notice" role="alert" className="rounded-md border border-red-400/60 bg-red-950/60 px-3 py-2 text-sm text-red-100">
          {noticeText}
        </p>
      ) : null}
      <Field id="sign-in-email" label={t.account.fields.email} error={errorText(errors.email)}>
        <input
          ref={emailRef}
          id="sign-in-email"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={describedBy("sign-in-email", { error: errors.email })}
          className={inputClass}
        />
      </Field>
      <Field id="sign-in-password" label={t.account.fields.password} error={errorText(errors.password)}>
        <PasswordInput
          ref={passwordRef}
          id="sign-in-password"
          name="password"
          autoComplete="current-password"
          required
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={describedBy("sign-in-password", { error: errors.password })}
        />
      </Field>
      <button type="submit" disabled={pending} className={`${primaryButtonClass} w-full`}>
        {pending ? t.account.signIn.submitting : t.account.signIn.submit}
      </button>
    </form>
  );
}
