"use client";

import { useRef, useState } from "react";
import type { z } from "zod";
import { useI18n } from "@/components/i18n/i18n-provider";
import { accountFieldErrors, type AccountFieldErrors } from "@/lib/schemas/account";
import { Field, describedBy } from "./field";
import { PasswordInput } from "./password-input";
import { inputClass, primaryButtonClass } from "./styles";

export interface Credentials {
  email: string;
  password: string;
}

/** How a submission ended, as far as the form is concerned. */
export type CredentialsOutcome<Notice> =
  /** The page is being replaced: the button stays busy until it goes. */
  { kind: "leaving" } | { kind: "fields"; errors: AccountFieldErrors } | { kind: "notice"; notice: Notice; focusPassword?: boolean };

/**
 * The e-mail and password form of the sign-in and sign-up pages. It checks the fields with the
 * schema the server uses, shows each problem beside its field and focuses the first, and keeps the
 * button busy while `submit` runs. Notices are kept as codes, so they follow a change of language.
 */
export function CredentialsForm<Notice extends string>({
  idPrefix,
  schema,
  emailAutoComplete,
  password,
  submitLabel,
  submittingLabel,
  initialNotice = null,
  noticeText,
  noticeId,
  prepare,
  submit,
}: {
  /** The fields' ids are `<idPrefix>-email` and `<idPrefix>-password`. */
  idPrefix: string;
  schema: z.ZodType<Credentials>;
  emailAutoComplete: "username" | "email";
  password: { autoComplete: "current-password" | "new-password"; minLength?: number; hint?: string };
  submitLabel: string;
  submittingLabel: string;
  initialNotice?: Notice | null;
  noticeText: (notice: Notice) => string;
  /** Given, the notice has this id and the form names it in `aria-describedby`. */
  noticeId?: string;
  /** Called when the form is first focused: time to fetch what checking it needs. */
  prepare?: () => void;
  submit: (credentials: Credentials) => Promise<CredentialsOutcome<Notice>>;
}) {
  const { t } = useI18n();
  const [errors, setErrors] = useState<AccountFieldErrors>({});
  const [notice, setNotice] = useState<Notice | null>(initialNotice);
  const [pending, setPending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const emailId = `${idPrefix}-email`;
  const passwordId = `${idPrefix}-password`;

  function showFieldErrors(fields: AccountFieldErrors) {
    setErrors(fields);
    setNotice(null);
    (fields.email ? emailRef : passwordRef).current?.focus();
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { email: String(data.get("email") ?? "").trim(), password: String(data.get("password") ?? "") };
    // Busy from the start: the first check may wait for the strength estimator's dictionaries.
    setPending(true);
    // If they cannot be fetched, the server's check (the same schema) is the one that answers.
    const parsed = await schema.safeParseAsync(input).catch(() => null);
    if (parsed && !parsed.success) {
      setPending(false);
      return showFieldErrors(accountFieldErrors(parsed.error));
    }
    setErrors({});
    setNotice(null);
    const outcome = await submit(parsed?.data ?? input);
    if (outcome.kind === "leaving") return;
    setPending(false);
    if (outcome.kind === "fields") return showFieldErrors(outcome.errors);
    setNotice(outcome.notice);
    if (outcome.focusPassword) passwordRef.current?.focus();
  }

  const errorText = (code?: keyof typeof t.account.errors) => (code ? t.account.errors[code] : undefined);
  const shownNotice = notice ? noticeText(notice) : null;

  // method="post": a submit before hydration must not put the password in the URL (history, logs).
  return (
    <form
      method="post"
      onSubmit={onSubmit}
      onFocus={prepare}
      noValidate
      className="space-y-5"
      aria-describedby={shownNotice ? noticeId : undefined}
    >
      {shownNotice ? (
        <p id={noticeId} role="alert" className="rounded-md border border-red-400/60 bg-red-950/60 px-3 py-2 text-sm text-red-100">
          {shownNotice}
        </p>
      ) : null}
      <Field id={emailId} label={t.account.fields.email} error={errorText(errors.email)}>
        <input
          ref={emailRef}
          id={emailId}
          name="email"
          type="email"
          autoComplete={emailAutoComplete}
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={describedBy(emailId, { error: errors.email })}
          className={inputClass}
        />
      </Field>
      <Field id={passwordId} label={t.account.fields.password} hint={password.hint} error={errorText(errors.password)}>
        <PasswordInput
          ref={passwordRef}
          id={passwordId}
          name="password"
          autoComplete={password.autoComplete}
          minLength={password.minLength}
          required
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={describedBy(passwordId, { error: errors.password, hint: password.hint })}
        />
      </Field>
      <button type="submit" disabled={pending} className={`${primaryButtonClass} w-full`}>
        {pending ? submittingLabel : submitLabel}
      </button>
    </form>
  );
}
