"use client";

import { useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { signInWithPassword } from "@/lib/queries/auth-client";
import {
  PASSWORD_MIN_LENGTH,
  accountFieldErrors,
  passwordChangeRequestSchema,
  type AccountFieldErrors,
  type ChangePasswordResult,
} from "@/lib/schemas/account";
import { loadPasswordEstimator } from "@/lib/schemas/password-strength";
import { Field, describedBy } from "./field";
import { PasswordInput } from "./password-input";
import { primaryButtonClass } from "./styles";

type Notice = "tooMany" | "signedOut" | "generic";

/**
 * Current and new password, checked with the server's schema first. The change ends every session,
 * this one too, so on success the form signs in again with the new password and reloads the page.
 */
export function PasswordChangeForm({
  email,
  changed,
  action,
}: {
  email: string;
  /** The page was loaded right after a change: say it worked. */
  changed: boolean;
  action: (input: { currentPassword: string; newPassword: string }) => Promise<ChangePasswordResult>;
}) {
  const { t } = useI18n();
  const [errors, setErrors] = useState<AccountFieldErrors>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pending, setPending] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const newRef = useRef<HTMLInputElement>(null);
  const m = t.account.password;

  function showFieldErrors(fields: AccountFieldErrors) {
    setErrors(fields);
    setNotice(null);
    (fields.currentPassword ? currentRef : newRef).current?.focus();
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { currentPassword: String(data.get("currentPassword") ?? ""), newPassword: String(data.get("newPassword") ?? "") };
    setPending(true);
    // If the strength estimator cannot be fetched, the server's check (the same schema) answers.
    const parsed = await passwordChangeRequestSchema.safeParseAsync({ ...input, email }).catch(() => null);
    if (parsed && !parsed.success) {
      setPending(false);
      return showFieldErrors(accountFieldErrors(parsed.error));
    }
    setErrors({});
    setNotice(null);
    const result = await action(input).catch(() => null);
    if (result?.ok) {
      const signedIn = await signInWithPassword(email, input.newPassword);
      window.location.assign(signedIn.ok ? "/account?notice=passwordChanged#password" : "/sign-in?callbackUrl=%2Faccount&notice=signedOut");
      return;
    }
    setPending(false);
    if (result?.reason === "invalid_field") return showFieldErrors(result.fields);
    setNotice(result?.reason === "rate_limited" ? "tooMany" : result?.reason === "not_signed_in" ? "signedOut" : "generic");
  }

  const errorText = (code?: keyof typeof t.account.errors) => (code ? t.account.errors[code] : undefined);
  const noticeText = notice === "tooMany" ? m.tooMany : notice ? t.account.errors[notice] : null;

  return (
    <form
      method="post"
      onSubmit={onSubmit}
      onFocus={() => void loadPasswordEstimator().catch(() => {})}
      noValidate
      className="max-w-md space-y-5"
    >
      {changed && !notice ? (
        <p role="status" className="rounded-md border border-emerald-400/60 bg-emerald-950/60 px-3 py-2 text-sm text-emerald-100">
          {m.changed}
        </p>
      ) : null}
      {noticeText ? (
        <p role="alert" className="rounded-md border border-red-400/60 bg-red-950/60 px-3 py-2 text-sm text-red-100">
          {noticeText}
        </p>
      ) : null}
      {/* For password managers: which account this new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Field id="password-current" label={m.current} error={errorText(errors.currentPassword)}>
        <PasswordInput
          ref={currentRef}
          id="password-current"
          name="currentPassword"
          autoComplete="current-password"
          required
          aria-invalid={errors.currentPassword ? true : undefined}
          aria-describedby={describedBy("password-current", { error: errors.currentPassword })}
        />
      </Field>
      <Field id="password-new" label={m.new} hint={t.account.signUp.passwordHint} error={errorText(errors.newPassword)}>
        <PasswordInput
          ref={newRef}
          id="password-new"
          name="newPassword"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          required
          aria-invalid={errors.newPassword ? true : undefined}
          aria-describedby={describedBy("password-new", { error: errors.newPassword, hint: true })}
        />
      </Field>
      <button type="submit" disabled={pending} className={primaryButtonClass}>
        {pending ? m.submitting : m.submit}
      </button>
    </form>
  );
}
