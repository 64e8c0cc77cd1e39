"use client";

import { useEffect, useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format, plural } from "@/lib/i18n/format";
import {
  API_SCOPES,
  PARTNER_ONLY_SCOPES,
  tokenCreateRequestSchema,
  type ApiScope,
  type CreateTokenResult,
  type TokenFormField,
} from "@/lib/schemas/tokens";
import { CopyButton } from "./copy-button";
import { Field, describedBy } from "./field";
import { fieldErrorClass, inputClass, primaryButtonClass, secondaryButtonClass } from "./styles";
import { SignedOutNotice } from "./signed-out-notice";
import { useHydrated } from "@/components/ui/use-hydrated";

type TokenField = TokenFormField;

const EXPIRY_CHOICES = [7, 30, 90, 365] as const;
const DEFAULT_EXPIRY_DAYS = 90;
const DEFAULT_SCOPES: ApiScope[] = ["catalog:read"];

/**
 * Creates an API token through `action` (a server action) after checking the form with the schema
 * the server uses; the new token is shown once, with a copy button, until dismissed. Scopes only a
 * partner may hold are offered to partners alone (the server refuses them to anyone else).
 */
export function TokenCreateForm({ action, partner }: { action: (input: unknown) => Promise<CreateTokenResult>; partner: boolean }) {
  const { locale, t } = useI18n();
  const m = t.account.tokens;
  const [invalid, setInvalid] = useState<Set<TokenField>>(new Set());
  const [formError, setFormError] = useState<React.ReactNode>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const createdHeading = useRef<HTMLHeadingElement>(null);
  const tokenInput = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (created) createdHeading.current?.focus();
  }, [created]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const days = String(data.get("expiresInDays") ?? "");
    const input = {
      name: String(data.get("name") ?? ""),
      scopes: data.getAll("scopes").map(String),
      ...(days ? { expiresInDays: Number(days) } : {}),
    };
    const parsed = tokenCreateRequestSchema.safeParse(input);
    if (!parsed.success) return showInvalid(parsed.error.issues.map((i) => String(i.path[0]) as TokenField));
    setInvalid(new Set());
    setFormError(null);
    setPending(true);
    try {
      const result = await action(parsed.data);
      if (result.ok) {
        setCreated({ token: result.token, name: result.name });
        formRef.current?.reset();
      } else if (result.reason === "invalid_field") {
        showInvalid(result.fields);
      } else if (result.reason === "token_limit_reached") {
        setFormError(format(t.errors.reasons.token_limit_reached, { max: result.max }));
      } else if (result.reason === "partner_required") {
        setFormError(t.errors.reasons.partner_required);
      } else {
        setFormError(<SignedOutNotice />);
      }
    } catch {
      setFormError(t.account.errors.generic);
    } finally {
      setPending(false);
    }
  }

  function showInvalid(fields: TokenField[]) {
    const set = new Set(fields);
    setInvalid(set);
    setFormError(null);
    const firstField = (["name", "scopes", "expiresInDays"] as const).find((f) => set.has(f));
    if (firstField === "name") nameRef.current?.focus();
    else if (firstField) formRef.current?.querySelector<HTMLElement>(`[name="${firstField}"]`)?.focus();
  }

  return (
    <div className="space-y-6">
      {created ? (
        <section aria-labelledby="new-token-title" className="rounded-lg border border-emerald-500/60 bg-emerald-950/40 p-4 sm:p-5">
          <h4 id="new-token-title" ref={createdHeading} tabIndex={-1} className="text-lg font-semibold text-emerald-100">
            {format(m.createdTitle, { name: created.name })}
          </h4>
          <p id="new-token-warning" className="mt-1 text-sm text-emerald-100">
            {m.createdWarning}
          </p>
          <label htmlFor="new-token-value" className="mt-3 block text-sm font-medium text-slate-200">
            {m.createdLabel}
          </label>
          {/* The whole token, wrapped, on a row of its own: beside the Copy button and its "Copied"
              it was squeezed to its first characters in this narrow column. */}
          <div className="mt-1 flex flex-col items-start gap-2">
            <textarea
              ref={tokenInput}
              id="new-token-value"
              readOnly
              rows={2}
              value={created.token}
              aria-describedby="new-token-warning"
              onFocus={(e) => e.currentTarget.select()}
              className={`${inputClass} w-full resize-none font-mono text-sm break-all`}
            />
            <CopyButton value={created.token} label={`${t.account.copy.copy}: ${m.createdLabel}`} selectTarget={tokenInput} />
          </div>
          <button type="button" onClick={() => setCreated(null)} className={`${secondaryButtonClass} mt-4`}>
            {m.dismiss}
          </button>
        </section>
      ) : null}

      <form ref={formRef} method="post" onSubmit={onSubmit} noValidate aria-labelledby="create-token-title" className="space-y-5">
        <h3 id="create-token-title" className="text-lg font-semibold">
          {m.createTitle}
        </h3>
        {formError ? (
          <p role="alert" className="rounded-md border border-red-400/60 bg-red-950/60 px-3 py-2 text-sm text-red-100">
            {formError}
          </p>
        ) : null}
        <Field id="token-name" label={m.name} hint={m.nameHint} error={invalid.has("name") ? m.errors.nameRequired : undefined}>
          <input
            ref={nameRef}
            id="token-name"
            name="name"
            maxLength={100}
            required
            autoComplete="off"
            aria-invalid={invalid.has("name") || undefined}
            aria-describedby={describedBy("token-name", { hint: true, error: invalid.has("name") })}
            className={inputClass}
          />
        </Field>

        <fieldset aria-describedby={invalid.has("scopes") ? "token-scopes-error" : undefined}>
          <legend className="text-sm font-medium text-slate-200">{m.scopes}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
            {API_SCOPES.filter((scope) => partner || !PARTNER_ONLY_SCOPES.includes(scope)).map((scope) => (
              <label
                key={scope}
                className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-700 bg-slate-900 px-3 py-2 hover:border-slate-500"
              >
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  defaultChecked={DEFAULT_SCOPES.includes(scope)}
                  aria-invalid={invalid.has("scopes") || undefined}
                  className="mt-1 size-4 accent-sky-400"
                />
                <span className="text-sm">
                  <code className="font-mono text-sky-200">{scope}</code>
                  <span className="block text-slate-300">{m.scopeDescriptions[scope]}</span>
                </span>
              </label>
            ))}
          </div>
          {partner ? null : <p className="mt-2 text-sm text-slate-400">{m.partnerScopesHint}</p>}
          {invalid.has("scopes") ? (
            <p id="token-scopes-error" className={fieldErrorClass}>
              {m.errors.scopesRequired}
            </p>
          ) : null}
        </fieldset>

        <Field id="token-expiry" label={m.expiry} error={invalid.has("expiresInDays") ? m.errors.expiryInvalid : undefined}>
          <select
            id="token-expiry"
            name="expiresInDays"
            defaultValue={String(DEFAULT_EXPIRY_DAYS)}
            aria-invalid={invalid.has("expiresInDays") || undefined}
            aria-describedby={describedBy("token-expiry", { error: invalid.has("expiresInDays") })}
            className={`${inputClass} sm:max-w-xs`}
          >
            {EXPIRY_CHOICES.map((days) => (
              <option key={days} value={days}>
                {plural(locale, days, m.expiryDays)}
              </option>
            ))}
            <option value="">{m.expiryNever}</option>
          </select>
        </Field>

        <button type="submit" disabled={!hydrated || pending} className={primaryButtonClass}>
          {pending ? m.creating : m.create}
        </button>
      </form>
    </div>
  );
}
