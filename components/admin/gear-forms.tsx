"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Field, describedBy } from "@/components/account/field";
import { inputClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { AdminActionResult } from "@/lib/admin/action";
import { format } from "@/lib/i18n/format";
import { STOCK_MODES, gearItemCreateSchema, gearStockAdjustSchema, type GearItemField } from "@/lib/schemas/admin-catalog";
import { stringValues } from "./action-button";

/** inputClass fills its container; in a table row the controls take their own width instead. */
const compactInputClass = inputClass.replace("block w-full", "block");

type AdjustInput = { itemId: number; mode: (typeof STOCK_MODES)[number]; amount: string };

/** One item's stock change (set to, or add a signed amount), in its table row. */
export function StockAdjustForm({
  itemId,
  title,
  action,
}: {
  itemId: number;
  title: string;
  action: (input: AdjustInput) => Promise<AdminActionResult<{ stock: number; reserved: number }>>;
}) {
  const { t } = useI18n();
  const m = t.adminCatalog.gear;
  const router = useRouter();
  const id = useId();
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = { itemId, mode: String(data.get("mode")) as AdjustInput["mode"], amount: String(data.get("amount") ?? "") };
    setMessage(null);
    if (!gearStockAdjustSchema.safeParse(input).success) return setMessage({ error: true, text: m.amountError });
    setPending(true);
    try {
      const result = await action(input);
      if (result.ok) {
        setMessage({ error: false, text: format(m.adjusted, { item: title, stock: result.stock }) });
        form.reset();
        router.refresh();
      } else setMessage({ error: true, text: format(t.errors.reasons[result.reason], stringValues(result.details)) });
    } catch {
      setMessage({ error: true, text: t.adminCatalog.common.generic });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-center gap-2">
      <select name="mode" aria-label={format(m.modeLabel, { item: title })} className={`${compactInputClass} w-auto`} defaultValue="add">
        {STOCK_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {m.modes[mode]}
          </option>
        ))}
      </select>
      <input
        name="amount"
        inputMode="numeric"
        aria-label={format(m.amountLabel, { item: title })}
        aria-invalid={message?.error ? true : undefined}
        aria-describedby={message ? `${id}-message` : undefined}
        className={`${compactInputClass} w-24`}
        required
      />
      <button type="submit" disabled={pending} aria-label={format(m.applyLabel, { item: title })} className={secondaryButtonClass}>
        {m.apply}
      </button>
      <p id={`${id}-message`} role="status" className={`basis-full text-sm ${message?.error ? "text-red-300" : "text-emerald-300"}`}>
        {message?.text}
      </p>
    </form>
  );
}

type CreateInput = Record<GearItemField, string>;

/** Adds a gear item to a platform. */
export function GearItemCreateForm({ action }: { action: (input: CreateInput) => Promise<AdminActionResult<{ id: number }>> }) {
  const { t } = useI18n();
  const m = t.adminCatalog.gear;
  const router = useRouter();
  const id = useId();
  const [errors, setErrors] = useState<Partial<Record<GearItemField, string>>>({});
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = Object.fromEntries(
      (["platform", "item", "title", "price", "stock"] as const).map((k) => [k, String(data.get(k) ?? "")]),
    ) as CreateInput;
    setMessage(null);
    const parsed = gearItemCreateSchema.safeParse(input);
    if (!parsed.success) {
      const next: Partial<Record<GearItemField, string>> = {};
      for (const issue of parsed.error.issues)
        next[String(issue.path[0]) as GearItemField] ??= m.form.fieldErrors[String(issue.path[0]) as GearItemField];
      return setErrors(next);
    }
    setErrors({});
    setPending(true);
    try {
      const result = await action(input);
      if (result.ok) {
        setMessage({ error: false, text: m.added });
        form.reset();
        router.refresh();
        return;
      }
      const text = format(t.errors.reasons[result.reason], stringValues(result.details));
      const field = result.param as GearItemField | undefined;
      if (field && field in m.form.fieldErrors) setErrors({ [field]: text });
      else setMessage({ error: true, text });
    } catch {
      setMessage({ error: true, text: t.adminCatalog.common.generic });
    } finally {
      setPending(false);
    }
  }

  const field = (name: GearItemField, props: React.InputHTMLAttributes<HTMLInputElement> = {}, hint?: string) => (
    <Field id={`${id}-${name}`} label={m.form[name]} hint={hint} error={errors[name]}>
      <input
        id={`${id}-${name}`}
        name={name}
        className={inputClass}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={describedBy(`${id}-${name}`, { hint, error: errors[name] })}
        {...props}
      />
    </Field>
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {field("platform", { inputMode: "numeric", required: true })}
      {field("item", { required: true, spellCheck: false }, m.form.itemHint)}
      {field("title", { required: true })}
      {field("price", { inputMode: "decimal", required: true })}
      {field("stock", { inputMode: "numeric", required: true, defaultValue: "0" })}
      <div className="flex flex-wrap items-end gap-3">
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {m.add}
        </button>
        <p role="status" className={`text-sm ${message?.error ? "text-red-300" : "text-emerald-300"}`}>
          {message?.text}
        </p>
      </div>
    </form>
  );
}
