"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { fieldErrorClass, inputClass, labelClass, primaryButtonClass, hintClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { AdminActionResult } from "@/lib/admin/action";
import { STAFF_ROLES, type StaffRole } from "@/lib/admin/permissions";
import { format } from "@/lib/i18n/format";
import { staffGrantRequestSchema, type StaffGrantRequest } from "@/lib/schemas/staff";

type GrantResult = AdminActionResult<{ email: string; role: StaffRole; generatedPassword: string | null; inEffect: boolean }>;

/** Gives a role by e-mail; a password made for a new account is shown once, in a live region. */
export function StaffGrantForm({ action }: { action: (input: StaffGrantRequest) => Promise<GrantResult> }) {
  const { t } = useI18n();
  const m = t.admin.staff;
  const router = useRouter();
  const id = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<{ email: string; role: StaffRole; password: string | null; inEffect: boolean } | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = staffGrantRequestSchema.safeParse({ email: String(data.get("email") ?? "").trim(), role: data.get("role") });
    setDone(null);
    setFormError(null);
    if (!parsed.success) {
      setEmailError(t.errors.reasons.invalid_field);
      emailRef.current?.focus();
      return;
    }
    setEmailError(null);
    setPending(true);
    try {
      const result = await action(parsed.data);
      if (result.ok) {
        setDone({ email: result.email, role: result.role, password: result.generatedPassword, inEffect: result.inEffect });
        event.currentTarget?.reset();
        router.refresh();
      } else if (result.param === "email") {
        setEmailError(t.errors.reasons[result.reason]);
        emailRef.current?.focus();
      } else {
        setFormError(t.errors.reasons[result.reason]);
      }
    } catch {
      setFormError(t.admin.generic);
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <div>
          <label htmlFor={`${id}-email`} className={labelClass}>
            {m.email}
          </label>
          <input
            ref={emailRef}
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="off"
            required
            aria-invalid={emailError ? true : undefined}
            aria-describedby={`${id}-hint${emailError ? ` ${id}-error` : ""}`}
            className={`mt-1 ${inputClass}`}
          />
        </div>
        <div>
          <label htmlFor={`${id}-role`} className={labelClass}>
            {m.role}
          </label>
          <select id={`${id}-role`} name="role" defaultValue="operator" className={`mt-1 ${inputClass}`}>
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {t.admin.roles[role]} — {t.admin.roleDescriptions[role]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={primaryButtonClass} disabled={pending}>
          {m.grant}
        </button>
      </div>
      <p id={`${id}-hint`} className={hintClass}>
        {m.grantHint}
      </p>
      {emailError ? (
        <p id={`${id}-error`} className={fieldErrorClass}>
          {emailError}
        </p>
      ) : null}
      <div role="status" aria-live="polite">
        {formError ? <p className={fieldErrorClass}>{formError}</p> : null}
        {done ? (
          <div className="rounded-md border border-emerald-700 bg-emerald-950/40 p-3 text-sm text-emerald-100">
            <p>{format(done.inEffect ? m.granted : m.grantedWaiting, { role: t.admin.roles[done.role], email: done.email })}</p>
            {done.password ? (
              <p className="mt-2">
                {m.createdPassword} <code className="rounded bg-slate-950 px-2 py-1 font-mono break-all text-white">{done.password}</code>
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </form>
  );
}
