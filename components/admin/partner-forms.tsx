"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { fieldErrorClass, hintClass, inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { AdminActionResult } from "@/lib/admin/action";
import { format } from "@/lib/i18n/format";
import { partnerHoldCapSchema, partnerMakeSchema, type PartnerHoldCapRequest } from "@/lib/schemas/admin-partners";

/** Makes the account with an e-mail a partner; the answer (or the refusal, by reason) is announced. */
export function MakePartnerForm({ action }: { action: (input: { email: string }) => Promise<AdminActionResult<{ made: boolean }>> }) {
  const { t } = useI18n();
  const m = t.adminPartners.partners;
  const router = useRouter();
  const id = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = partnerMakeSchema.safeParse({ email: String(new FormData(form).get("email") ?? "") });
    setDone(null);
    if (!parsed.success) {
      setError(t.errors.reasons.invalid_field);
      emailRef.current?.focus();
      return;
    }
    setError(null);
    setPending(true);
    try {
      const result = await action(parsed.data);
      if (result.ok) {
        setDone(format(result.made ? m.made : m.alreadyPartner, { email: parsed.data.email }));
        form.reset();
        router.refresh();
      } else {
        setError(t.errors.reasons[result.reason]);
        emailRef.current?.focus();
      }
    } catch {
      setError(t.admin.generic);
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-56 flex-1 sm:max-w-sm">
          <label htmlFor={`${id}-email`} className={labelClass}>
            {m.makeEmail}
          </label>
          <input
            ref={emailRef}
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="off"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
            className={`mt-1 ${inputClass}`}
          />
        </div>
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {m.make}
        </button>
      </div>
      <p id={`${id}-hint`} className={hintClass}>
        {m.makeHint}
      </p>
      {error ? (
        <p id={`${id}-error`} className={fieldErrorClass}>
          {error}
        </p>
      ) : null}
      <p role="status" className="text-sm text-emerald-300">
        {done}
      </p>
    </form>
  );
}

/** A partner's own cap on open holds: a whole number, or empty for the store's default. */
export function HoldCapForm({
  userId,
  holdCap,
  defaultCap,
  email,
  action,
}: {
  userId: string;
  holdCap: number | null;
  defaultCap: number;
  email: string;
  action: (input: PartnerHoldCapRequest) => Promise<AdminActionResult>;
}) {
  const { t } = useI18n();
  const m = t.adminPartners.partners;
  const router = useRouter();
  const id = useId();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const raw = String(new FormData(event.currentTarget).get("holdCap") ?? "").trim();
    const parsed = partnerHoldCapSchema.safeParse({ userId, holdCap: raw === "" ? null : Number(raw) });
    if (!parsed.success) return setMessage({ error: true, text: m.holdCapInvalid });
    setPending(true);
    setMessage(null);
    try {
      const result = await action(parsed.data);
      if (result.ok) {
        setMessage({ error: false, text: m.holdCapSaved });
        router.refresh();
      } else setMessage({ error: true, text: t.errors.reasons[result.reason] });
    } catch {
      setMessage({ error: true, text: t.admin.generic });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-1">
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor={`${id}-cap`} className={labelClass}>
            {m.holdCap}
          </label>
          <input
            id={`${id}-cap`}
            name="holdCap"
            type="number"
            inputMode="numeric"
            min={1}
            max={10_000_000}
            step={1}
            defaultValue={holdCap ?? ""}
            placeholder={String(defaultCap)}
            aria-describedby={`${id}-hint`}
            aria-invalid={message?.error ? true : undefined}
            className={`mt-1 w-40 ${inputClass}`}
          />
        </div>
        <button type="submit" disabled={pending} aria-label={`${m.holdCapSave}: ${email}`} className={secondaryButtonClass}>
          {m.holdCapSave}
        </button>
      </div>
      <p id={`${id}-hint`} className={hintClass}>
        {format(m.holdCapHint, { default: defaultCap })}
      </p>
      <p role="status" className={`text-sm ${message?.error ? "text-red-300" : "text-emerald-300"}`}>
        {message?.text}
      </p>
    </form>
  );
}
