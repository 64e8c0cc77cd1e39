"use client";

import { useState, type FormEvent } from "react";
import type { z } from "zod";
import { useI18n } from "@/components/i18n/i18n-provider";
import { currentAttribution } from "@/lib/attribution";
import {
  localizeApiError,
  localizeIssues,
  type ApiProblem,
  type ApiProblemContext,
  type CheckoutField,
  type FieldErrors,
} from "@/lib/i18n/checkout-errors";
import { ApiRequestError } from "@/lib/queries/api-client";
import { useFocusRequest } from "./use-focus-request";

interface Mutation<Body, Response> {
  isPending: boolean;
  mutate(body: Body, options: { onSuccess: (response: Response) => void; onError: (error: Error) => void }): void;
}

/**
 * What the checkout forms share: the API's schema checks the body in the browser (once the shopper
 * has tried to submit, then as they type), the first field with a problem gets the focus, the
 * visit's attribution goes with the request, and the store's answer is shown by field in the
 * shopper's language. A field's problem from the store stands until that field changes.
 */
export function useCheckoutForm<Body, Response>({
  schema,
  body,
  fieldOrder,
  mutation,
}: {
  schema: z.ZodType;
  /** The request body for the form's current values. */
  body: Body;
  /** Fields in the order they appear: the first one with a problem gets the focus. */
  fieldOrder: CheckoutField[];
  mutation: Mutation<Body, Response>;
}) {
  const { t } = useI18n();
  const [attempted, setAttempted] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const { register, alertRef, requestFocus } = useFocusRequest();

  const parsed = attempted ? schema.safeParse(body) : null;
  const clientErrors: FieldErrors = parsed && !parsed.success ? localizeIssues(parsed.error, body, t).fields : {};

  function submit(event: FormEvent, { context, onSuccess }: { context?: ApiProblemContext; onSuccess: (response: Response) => void }) {
    event.preventDefault();
    if (mutation.isPending) return;
    setAttempted(true);
    setProblem(null);
    const checked = schema.safeParse(body);
    if (!checked.success) {
      const { fields, form } = localizeIssues(checked.error, body, t);
      const first = fieldOrder.find((f) => fields[f]);
      if (first) return requestFocus(first);
      setProblem({ message: form.join(" ") });
      return requestFocus("alert");
    }
    const attribution = currentAttribution();
    mutation.mutate(
      { ...body, ...(attribution ? { attribution } : {}) },
      {
        onSuccess,
        onError: (error) => {
          const found =
            error instanceof ApiRequestError ? localizeApiError(error.status, error.message, t, context) : localizeApiError(null, String(error), t);
          setProblem(found);
          requestFocus(found.field ?? "alert");
        },
      },
    );
  }

  return {
    submit,
    problem,
    /** The store's answer about this field, else the schema's. */
    errorFor: (field: CheckoutField) => (problem?.field === field ? problem.message : undefined) ?? clientErrors[field],
    /** The shopper changed these fields: the store's problem with any of them no longer applies. */
    clearProblem: (changed: (field: CheckoutField | undefined) => boolean) => setProblem((p) => (p && changed(p.field) ? null : p)),
    /** Back to a fresh form: no problems shown until the next submit. */
    reset: () => setAttempted(false),
    register,
    alertRef,
  };
}
