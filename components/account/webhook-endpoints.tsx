"use client";

import { useEffect, useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format, plural } from "@/lib/i18n/format";
import {
  WEBHOOK_EVENT_TYPES,
  type CreateWebhookEndpointResult,
  type ResendWebhookResult,
  type WebhookEndpointActionResult,
  type WebhookEndpointFormField,
  type WebhookEventType,
} from "@/lib/schemas/webhooks";
import { CopyButton } from "./copy-button";
import { Field, describedBy } from "./field";
import { LocalTime } from "./local-time";
import { fieldErrorClass, inputClass, primaryButtonClass, secondaryButtonClass } from "./styles";
import { WebhookSecret } from "./webhook-secret";
import { SignedOutNotice } from "./signed-out-notice";
import { useHydrated } from "@/components/ui/use-hydrated";

export interface EndpointDeliveryRow {
  id: string;
  eventType: string;
  status: "pending" | "delivered" | "stopped" | "failed";
  attemptCount: number;
  createdAt: string;
  nextAttemptAt: string;
  resent: boolean;
  lastResponseStatus: number | null;
  lastError: string | null;
}

export interface EndpointRow {
  id: string;
  url: string;
  eventTypes: WebhookEventType[];
  secret: string;
  enabled: boolean;
  deliveries: EndpointDeliveryRow[];
}

export interface WebhookActions {
  create: (input: unknown) => Promise<CreateWebhookEndpointResult>;
  setEnabled: (id: string, enabled: boolean) => Promise<WebhookEndpointActionResult>;
  remove: (id: string) => Promise<WebhookEndpointActionResult>;
  sendTest: (id: string) => Promise<WebhookEndpointActionResult>;
  resend: (deliveryId: string) => Promise<ResendWebhookResult>;
}

const statusClass: Record<EndpointDeliveryRow["status"], string> = {
  pending: "text-amber-200",
  delivered: "text-emerald-300",
  stopped: "text-slate-300",
  failed: "text-red-300",
};

const eventKey = (type: WebhookEventType) => type.slice("intent.".length) as "paid";

/** The account's webhook endpoints: register one, then per endpoint its secret, switches, a test event and the delivery log. */
export function WebhookEndpoints({ endpoints, actions }: { endpoints: EndpointRow[]; actions: WebhookActions }) {
  const { t } = useI18n();
  const m = t.account.webhooks;
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <EndpointCreateForm action={actions.create} />
      <div>
        <h3 className="text-lg font-semibold">{m.listTitle}</h3>
        {endpoints.length === 0 ? (
          <p className="mt-2 text-sm text-slate-300">{m.empty}</p>
        ) : (
          <ul className="mt-3 space-y-4">
            {endpoints.map((endpoint) => (
              <EndpointItem key={endpoint.id} endpoint={endpoint} actions={actions} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function EndpointCreateForm({ action }: { action: WebhookActions["create"] }) {
  const { t } = useI18n();
  const m = t.account.webhooks;
  const [invalid, setInvalid] = useState<Set<WebhookEndpointFormField>>(new Set());
  const [formError, setFormError] = useState<React.ReactNode>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const createdHeading = useRef<HTMLHeadingElement>(null);
  const secretInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (created) createdHeading.current?.focus();
  }, [created]);

  function showInvalid(fields: WebhookEndpointFormField[]) {
    const set = new Set(fields);
    setInvalid(set);
    if (set.has("url")) urlRef.current?.focus();
    else if (set.has("eventTypes")) formRef.current?.querySelector<HTMLElement>('[name="eventTypes"]')?.focus();
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { url: String(data.get("url") ?? "").trim(), eventTypes: data.getAll("eventTypes").map(String) };
    // The URL's rule depends on the server's WEBHOOK_ALLOW_HOSTS, so only emptiness is judged here.
    const missing = [...(input.url ? [] : ["url" as const]), ...(input.eventTypes.length ? [] : ["eventTypes" as const])];
    setFormError(null);
    if (missing.length) return showInvalid(missing);
    setInvalid(new Set());
    setPending(true);
    try {
      const result = await action(input);
      if (result.ok) {
        setCreated({ url: result.url, secret: result.secret });
        formRef.current?.reset();
      } else if (result.reason === "invalid_field") {
        showInvalid(result.fields);
      } else if (result.reason === "webhook_endpoint_limit_reached") {
        setFormError(format(t.errors.reasons.webhook_endpoint_limit_reached, { max: result.max }));
      } else {
        setFormError(<SignedOutNotice />);
      }
    } catch {
      setFormError(t.account.errors.generic);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-6">
      {created ? (
        <section aria-labelledby="new-endpoint-title" className="rounded-lg border border-emerald-500/60 bg-emerald-950/40 p-4 sm:p-5">
          <h4 id="new-endpoint-title" ref={createdHeading} tabIndex={-1} className="text-lg font-semibold break-all text-emerald-100">
            {format(m.createdTitle, { url: created.url })}
          </h4>
          <p id="new-endpoint-warning" className="mt-1 text-sm text-emerald-100">
            {m.createdWarning}
          </p>
          <label htmlFor="new-endpoint-secret" className="mt-3 block text-sm font-medium text-slate-200">
            {m.secretLabel}
          </label>
          <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
            <input
              ref={secretInput}
              id="new-endpoint-secret"
              readOnly
              value={created.secret}
              aria-describedby="new-endpoint-warning"
              onFocus={(e) => e.currentTarget.select()}
              className={`${inputClass} font-mono text-sm sm:flex-1`}
            />
            <CopyButton value={created.secret} label={`${t.account.copy.copy}: ${m.secretLabel}`} selectTarget={secretInput} />
          </div>
          <button type="button" onClick={() => setCreated(null)} className={`${secondaryButtonClass} mt-4`}>
            {m.dismiss}
          </button>
        </section>
      ) : null}

      <form ref={formRef} method="post" onSubmit={onSubmit} noValidate aria-labelledby="add-endpoint-title" className="space-y-5">
        <h3 id="add-endpoint-title" className="text-lg font-semibold">
          {m.addTitle}
        </h3>
        {formError ? (
          <p role="alert" className="rounded-md border border-red-400/60 bg-red-950/60 px-3 py-2 text-sm text-red-100">
            {formError}
          </p>
        ) : null}
        <Field id="endpoint-url" label={m.url} hint={m.urlHint} error={invalid.has("url") ? m.urlInvalid : undefined}>
          <input
            ref={urlRef}
            id="endpoint-url"
            name="url"
            type="url"
            inputMode="url"
            maxLength={2048}
            required
            autoComplete="off"
            placeholder="https://example.com/hooks/giftkey"
            aria-invalid={invalid.has("url") || undefined}
            aria-describedby={describedBy("endpoint-url", { hint: true, error: invalid.has("url") })}
            className={inputClass}
          />
        </Field>
        <fieldset aria-describedby={invalid.has("eventTypes") ? "endpoint-events-error" : undefined}>
          <legend className="text-sm font-medium text-slate-200">{m.events}</legend>
          <div className="mt-2 grid gap-2">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label
                key={type}
                className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-700 bg-slate-900 px-3 py-2 hover:border-slate-500"
              >
                <input
                  type="checkbox"
                  name="eventTypes"
                  value={type}
                  defaultChecked
                  aria-invalid={invalid.has("eventTypes") || undefined}
                  className="mt-1 size-4 accent-sky-400"
                />
                <span className="text-sm">
                  <code className="font-mono text-sky-200">{type}</code>
                  <span className="block text-slate-300">{m.eventDescriptions[eventKey(type)]}</span>
                </span>
              </label>
            ))}
          </div>
          {invalid.has("eventTypes") ? (
            <p id="endpoint-events-error" className={fieldErrorClass}>
              {m.eventsRequired}
            </p>
          ) : null}
        </fieldset>
        <button type="submit" disabled={!hydrated || pending} className={primaryButtonClass}>
          {pending ? m.adding : m.add}
        </button>
      </form>
    </div>
  );
}

function EndpointItem({ endpoint, actions }: { endpoint: EndpointRow; actions: WebhookActions }) {
  const { locale, t } = useI18n();
  const m = t.account.webhooks;
  const c = t.account.intents;
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const url = endpoint.url;

  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  async function run(operation: () => Promise<WebhookEndpointActionResult | ResendWebhookResult>, done?: string) {
    setPending(true);
    setError(null);
    setNotice(null);
    try {
      const result = await operation();
      if (result.ok) setNotice(done ?? null);
      else if (result.reason === "rate_limited")
        setError(format(m.sendsLimited[result.per], { limit: result.limit, wait: wait(result.retryAfterSeconds) }));
      else setError(t.errors.reasons[result.reason]);
    } catch {
      setError(t.account.errors.generic);
    } finally {
      setPending(false);
    }
  }

  /** How long until a limit lets the next send through, in seconds under two minutes, else in whole minutes. */
  const wait = (seconds: number) =>
    seconds < 120 ? plural(locale, seconds, m.seconds) : plural(locale, Math.ceil(seconds / 60), m.minutes);

  const titleId = `endpoint-${endpoint.id}`;
  return (
    <li className="rounded-lg border border-slate-700 bg-slate-950/40 p-4">
      <h4 id={titleId} className="font-mono text-sm break-all text-slate-100">
        {url}
      </h4>
      <p className={`mt-1 text-sm ${endpoint.enabled ? "text-emerald-300" : "text-amber-200"}`}>
        {endpoint.enabled ? m.enabled : m.disabled}
      </p>
      <ul aria-label={m.events} className="mt-2 flex flex-wrap gap-2">
        {endpoint.eventTypes.map((type) => (
          <li key={type}>
            <code className="rounded bg-slate-800 px-2 py-0.5 font-mono text-xs text-sky-200">{type}</code>
          </li>
        ))}
      </ul>
      <div className="mt-3">
        <WebhookSecret
          secret={endpoint.secret}
          texts={{ label: m.secretLabel, revealLabel: format(m.revealLabel, { url }), hideLabel: format(m.hideLabel, { url }) }}
        />
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          disabled={!hydrated || pending}
          onClick={() => run(() => actions.sendTest(endpoint.id), m.testQueued)}
          aria-label={format(m.testLabel, { url })}
          className={secondaryButtonClass}
        >
          {m.test}
        </button>
        <button
          type="button"
          disabled={!hydrated || pending}
          onClick={() => run(() => actions.setEnabled(endpoint.id, !endpoint.enabled))}
          aria-label={format(endpoint.enabled ? m.disableLabel : m.enableLabel, { url })}
          className={secondaryButtonClass}
        >
          {endpoint.enabled ? m.disable : m.enable}
        </button>
        {confirming ? null : (
          <button
            ref={deleteRef}
            type="button"
            onClick={() => setConfirming(true)}
            aria-label={format(m.deleteLabel, { url })}
            className={`${secondaryButtonClass} border-red-400/70 text-red-200 hover:bg-red-950`}
          >
            {m.delete}
          </button>
        )}
      </div>
      {confirming ? (
        <div role="group" aria-label={format(m.deleteLabel, { url })} className="mt-3 rounded-md border border-red-400/60 p-3">
          <p className="text-sm text-slate-200">{m.deleteQuestion}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            <button
              ref={cancelRef}
              type="button"
              onClick={() => {
                setConfirming(false);
                requestAnimationFrame(() => deleteRef.current?.focus());
              }}
              className={secondaryButtonClass}
            >
              {m.cancel}
            </button>
            <button
              type="button"
              disabled={!hydrated || pending}
              onClick={() => run(() => actions.remove(endpoint.id))}
              className={`${secondaryButtonClass} border-red-400/70 text-red-200 hover:bg-red-950`}
            >
              {m.deleteConfirm}
            </button>
          </div>
        </div>
      ) : null}
      <p role="status" className="mt-2 text-sm text-emerald-300">
        {notice}
      </p>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {error}
        </p>
      ) : null}

      <h5 className="mt-4 text-sm font-semibold text-slate-200">{m.log}</h5>
      {endpoint.deliveries.length === 0 ? (
        <p className="mt-1 text-sm text-slate-400">{m.logEmpty}</p>
      ) : (
        <ol className="mt-2 space-y-2 text-sm">
          {endpoint.deliveries.map((d, i) => (
            <li key={d.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-slate-800 pt-2">
              <code className="font-mono text-xs text-sky-200">{d.eventType}</code>
              {d.resent ? <span className="text-xs text-slate-400">({m.resent})</span> : null}
              <span className={`font-medium ${statusClass[d.status]}`}>{c.callbackStatus[d.status]}</span>
              <span className="text-slate-300">{plural(locale, d.attemptCount, c.attempts)}</span>
              {d.attemptCount > 0 ? (
                <span className="break-all text-slate-300">
                  {format(c.lastAnswer, {
                    answer: d.lastResponseStatus !== null ? `HTTP ${d.lastResponseStatus}` : (d.lastError ?? c.noAnswer),
                  })}
                </span>
              ) : null}
              <span className="text-slate-400">
                <LocalTime value={d.createdAt} />
              </span>
              <button
                type="button"
                disabled={!hydrated || pending}
                onClick={() => run(() => actions.resend(d.id), m.resendQueued)}
                aria-label={format(m.resendLabel, { event: d.eventType, n: String(endpoint.deliveries.length - i) })}
                className={`${secondaryButtonClass} min-h-8 px-3 py-1 text-xs`}
              >
                {m.resend}
              </button>
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}
