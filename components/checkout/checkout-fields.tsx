"use client";

import { FormAlert, SubmitButton, TextField } from "@/components/forms/fields";
import { Button } from "@/components/ui/button";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { CheckoutField } from "@/lib/i18n/checkout-errors";
import type { useCheckoutForm } from "./use-checkout-form";

// The parts every checkout form has in common: the receipt e-mail, the promo code, and the form's
// end (the alert that sums up what went wrong, and the submit button).

type CheckoutForm = Pick<ReturnType<typeof useCheckoutForm>, "register" | "alertRef" | "problem" | "checking">;

interface FieldProps {
  form: CheckoutForm;
  value: string;
  onChange: (value: string) => void;
  /** The form's own errorFor, when it adds rules of its own to the hook's. */
  error: (field: CheckoutField) => string | undefined;
}

export function EmailField({ form, value, onChange, error }: FieldProps) {
  const { t } = useI18n();
  return (
    <TextField
      name="email"
      type="email"
      inputMode="email"
      autoComplete="email"
      spellCheck={false}
      label={t.checkout.email.label}
      hint={t.checkout.email.hint}
      value={value}
      onChange={onChange}
      error={error("email")}
      inputRef={form.register("email")}
    />
  );
}

/** The promo code and its "Apply" button, which prices the order with it before it exists (`promo`). */
export function PromoCodeField({
  form,
  value,
  onChange,
  error,
  promo,
}: FieldProps & { promo: { apply: (code: string) => void; clear: () => void; applying: boolean; codeError?: string } }) {
  const { t } = useI18n();
  return (
    <TextField
      action={
        <Button
          variant="secondary"
          className="shrink-0"
          aria-disabled={promo.applying || undefined}
          onClick={() => !promo.applying && promo.apply(value)}
        >
          {promo.applying ? t.checkout.code.applying : t.checkout.code.apply}
        </Button>
      }
      name="code"
      autoComplete="off"
      spellCheck={false}
      label={t.checkout.code.label}
      note={t.checkout.code.optional}
      hint={t.checkout.code.hint}
      value={value}
      onChange={(typed) => {
        promo.clear();
        onChange(typed);
      }}
      error={error("code") ?? promo.codeError}
      maxLength={64}
      inputRef={form.register("code")}
    />
  );
}

/** The alert (a field's problem points at the fields; anything else is said here) and the submit button. */
export function CheckoutFormEnd({
  form,
  pending,
  label,
  pendingLabel,
}: {
  form: CheckoutForm;
  pending: boolean;
  label: string;
  pendingLabel: string;
}) {
  const { t } = useI18n();
  const { problem } = form;
  return (
    <>
      <FormAlert
        alertRef={form.alertRef}
        title={t.checkout.errors.alertTitle}
        message={problem ? (problem.field ? t.checkout.errors.checkFields : problem.message) : null}
      />
      <SubmitButton pending={pending || form.checking} label={label} pendingLabel={pendingLabel} />
    </>
  );
}
