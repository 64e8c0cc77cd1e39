"use client";

import { useRef, useState, type FormEvent } from "react";
import type { z } from "zod";
import { useI18n } from "@/components/i18n/i18n-provider";
import {
  localizeApiError,
  localizeIssues,
  type ApiProblem,
  type ApiProblemContext,
  type CheckoutField,
  type FieldErrors,
} from "@/lib/i18n/checkout-errors";
import { ApiRequestError } from "@/lib/queries/api-client";
import type { Attribution } from "@/lib/schemas/common";
import { useFocusRequest } from "./use-focus-request";

interface Checks {
  schema: z.ZodType;
  currentAttribution: () => Attribution | undefined;
}

interface Mutation<Body, Response> {
  isPending: boolean;
  mutate(body: Body, options: { onSuccess: (response: Response) => void; onError: (error: Error) => void }): void;
}

/**
 * What the checkout forms share: the API's schema checks the body in the browser (once the shopper
 * has tried to submit, then as they type), the first field with a problem gets the focus, the
 * visit's attribution goes with the request, and the store's answer is shown by field in the
 * shopper's language. A field's problem from the store stands until that field changes.
 *
 * The schema module and the attribution reader (and zod with them, a third of the page's script)
 * are fetched when the shopper first focuses the form (`prepare`), not with the page: a visitor
 * who only looks pays nothing.
 */
export function useCheckoutForm<Body, Response>({
  loadSchema,
  body,
  fieldOrder,
  mutation,
}: {
  /** The API's own schema for the body, imported on demand: `() => import("…").then((m) => m.schema)`. */
  loadSchema: () => Promise<z.ZodType>;
  /** The request body for the form's current values. */
  body: Body;
  /** Fields in the order they appear: the first one with a problem gets the focus. */
  fieldOrder: CheckoutField[];
  mutation: Mutation<Body, Response>;
}) {
  const { t } = useI18n();
  const [attempted, setAttempted] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [schema, setSchema] = useState<z.ZodType | null>(null);
  const [checking, setChecking] = useState(false);
  const loading = useRef<Promise<Checks> | null>(null);
  const { register, alertRef, requestFocus } = useFocusRequest();

  /** Starts fetching the schema and the attribution reader; a failed fetch is tried again on the next call. */
  function prepare(): Promise<Checks> {
    loading.current ??= Promise.all([loadSchema(), import("@/lib/attribution")]).then(
      ([loaded, { currentAttribution }]) => (setSchema(() => loaded), { schema: loaded, currentAttribution }),
      (err: unknown) => ((loading.current = null), Promise.reject(err)),
    );
    return loading.current;
  }

  const parsed = attempted && schema ? schema.safeParse(body) : null;
  const clientErrors: FieldErrors = parsed && !parsed.success ? localizeIssues(parsed.error, body, t).fields : {};

  async function submit(
    event: FormEvent,
    { context, onSuccess }: { context?: ApiProblemContext; onSuccess: (response: Response) => void },
  ) {
    event.preventDefault();
    if (mutation.isPending || checking) return;
    setProblem(null);
    let checks: Checks;
    setChecking(true);
    try {
      checks = await prepare();
    } catch {
      // The script could not be fetched (offline, a deploy replaced it): the same words as a request that failed.
      setProblem(localizeApiError(null, t));
      return requestFocus("alert");
    } finally {
      setChecking(false);
    }
    setAttempted(true);
    const checked = checks.schema.safeParse(body);
    if (!checked.success) {
      const { fields, form } = localizeIssues(checked.error, body, t);
      const first = fieldOrder.find((f) => fields[f]);
      if (first) return requestFocus(first);
      setProblem({ message: form.join(" ") });
      return requestFocus("alert");
    }
    const attribution = checks.currentAttribution();
    mutation.mutate(
      { ...body, ...(attribution ? { attribution } : {}) },
      {
        onSuccess,
        onError: (error) => {
          const found = localizeApiError(error instanceof ApiRequestError ? error : null, t, context);
          setProblem(found);
          requestFocus(found.field ?? "alert");
        },
      },
    );
  }

  return {
    submit,
    /** Call when the shopper reaches the form (its focus event), so the schema is there by the submit. */
    prepare: () => void prepare().catch(() => {}),
    /** True while the submit waits for the schema; the button shows it as busy. */
    checking,
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
