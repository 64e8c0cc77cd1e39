"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Field, describedBy } from "@/components/account/field";
import { inputClass, primaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { AdminActionResult } from "@/lib/admin/action";
import { format } from "@/lib/i18n/format";
import {
  PROMO_APPLIES_TO,
  PROMO_KINDS,
  promoCodeCreateSchema,
  type PromoCodeField,
  type PromoCodeFormInput,
} from "@/lib/schemas/admin-catalog";
import { stringValues } from "./action-button";

type Result = AdminActionResult<{ id: number; code: string }>;

/** A stored instant as a datetime-local value in the reader's time zone. */
function localInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * Creates or edits a promo code. The form checks itself with the schema the server action uses;
 * the server's refusals (a taken code, a limit below the uses) land on their field.
 */
type EditedCode = Omit<PromoCodeFormInput, "validFrom" | "validUntil"> & {
  id: number;
  uses: number;
  /** ISO strings; shown in the reader's time zone. */
  validFrom: string | null;
  validUntil: string | null;
};
type CreateAction = (input: PromoCodeFormInput) => Promise<Result>;
type UpdateAction = (input: PromoCodeFormInput & { id: number }) => Promise<Result>;

export function PromoCodeForm(props: { action: CreateAction; initial?: undefined } | { action: UpdateAction; initial: EditedCode }) {
  const { initial } = props;
  const { t } = useI18n();
  const m = t.adminCatalog.promo;
  const router = useRouter();
  const id = useId();
  const [kind, setKind] = useState<(typeof PROMO_KINDS)[number]>(initial?.kind ?? "percent");
  const [errors, setErrors] = useState<Partial<Record<PromoCodeField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "");
    const instant = (name: string) => (text(name) ? new Date(text(name)).toISOString() : "");
    const input: PromoCodeFormInput = {
      code: text("code"),
      kind: text("kind") as PromoCodeFormInput["kind"],
      value: text("value"),
      appliesTo: text("appliesTo") as PromoCodeFormInput["appliesTo"],
      appIds: text("appIds"),
      validFrom: instant("validFrom"),
      validUntil: instant("validUntil"),
      maxUses: text("maxUses"),
    };
    setSaved(null);
    setFormError(null);
    const parsed = promoCodeCreateSchema.safeParse(input);
    if (!parsed.success) {
      const next: Partial<Record<PromoCodeField, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as PromoCodeField;
        next[field] ??= m.form.fieldErrors[field];
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const result = props.initial ? await props.action({ ...input, id: props.initial.id }) : await props.action(input);
      if (result.ok) {
        if (initial) {
          setSaved(t.adminCatalog.common.saved);
          router.refresh();
        } else router.push(`/admin/promo-codes?created=${encodeURIComponent(result.code)}`);
        return;
      }
      const message =
        result.reason === "invalid_field" && result.param && result.param in m.form.fieldErrors
          ? m.form.fieldErrors[result.param as PromoCodeField]
          : format(t.errors.reasons[result.reason], stringValues(result.details));
      const field = result.param as PromoCodeField | undefined;
      if (field && field in m.form.fieldErrors) setErrors({ [field]: message });
      else setFormError(message);
    } catch {
      setFormError(t.adminCatalog.common.generic);
    } finally {
      setPending(false);
    }
  }

  const input = (name: PromoCodeField, props: React.InputHTMLAttributes<HTMLInputElement>, hint?: string) => (
    <input
      id={`${id}-${name}`}
      name={name}
      className={inputClass}
      aria-invalid={errors[name] ? true : undefined}
      aria-describedby={describedBy(`${id}-${name}`, { hint, error: errors[name] })}
      {...props}
    />
  );

  const valueHint = kind === "percent" ? m.form.valueHintPercent : m.form.valueHintFixed;
  const maxUsesHint = format(m.form.maxUsesHint, { uses: initial?.uses ?? 0 });
  return (
    <form onSubmit={onSubmit} noValidate className="grid max-w-2xl gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <Field id={`${id}-code`} label={m.form.code} hint={m.form.codeHint} error={errors.code}>
          {input(
            "code",
            {
              defaultValue: initial?.code,
              required: true,
              autoCapitalize: "characters",
              spellCheck: false,
              className: `${inputClass} uppercase`,
            },
            m.form.codeHint,
          )}
        </Field>
      </div>
      <Field id={`${id}-kind`} label={m.form.kind} error={errors.kind}>
        <select id={`${id}-kind`} name="kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} className={inputClass}>
          {PROMO_KINDS.map((k) => (
            <option key={k} value={k}>
              {m.kinds[k]}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-value`} label={m.form.value} hint={valueHint} error={errors.value}>
        {input("value", { defaultValue: initial?.value, required: true, inputMode: kind === "percent" ? "numeric" : "decimal" }, valueHint)}
      </Field>
      <Field id={`${id}-appliesTo`} label={m.form.appliesTo} error={errors.appliesTo}>
        <select id={`${id}-appliesTo`} name="appliesTo" defaultValue={initial?.appliesTo ?? "all"} className={inputClass}>
          {PROMO_APPLIES_TO.map((a) => (
            <option key={a} value={a}>
              {m.targets[a]}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-appIds`} label={m.form.appIds} hint={m.form.appIdsHint} error={errors.appIds}>
        {input("appIds", { defaultValue: initial?.appIds, inputMode: "numeric" }, m.form.appIdsHint)}
      </Field>
      <Field id={`${id}-validFrom`} label={m.form.validFrom} hint={m.form.windowHint} error={errors.validFrom}>
        {input("validFrom", { type: "datetime-local", defaultValue: localInput(initial?.validFrom ?? null) }, m.form.windowHint)}
      </Field>
      <Field id={`${id}-validUntil`} label={m.form.validUntil} hint={m.form.windowHint} error={errors.validUntil}>
        {input("validUntil", { type: "datetime-local", defaultValue: localInput(initial?.validUntil ?? null) }, m.form.windowHint)}
      </Field>
      <Field id={`${id}-maxUses`} label={m.form.maxUses} hint={maxUsesHint} error={errors.maxUses}>
        {input("maxUses", { defaultValue: initial?.maxUses, inputMode: "numeric" }, maxUsesHint)}
      </Field>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? t.adminCatalog.common.saving : t.adminCatalog.common.save}
        </button>
        <p role="status" className="text-sm text-emerald-300">
          {saved}
        </p>
        {formError ? (
          <p role="alert" className="text-sm text-red-300">
            {formError}
          </p>
        ) : null}
      </div>
    </form>
  );
}
