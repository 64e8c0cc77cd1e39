"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { releaseDeliveryAction, reportDeliveryAction, retryDeliveryAction, takeDeliveryAction } from "@/app/admin/queue/actions";
import { dangerButtonClass, inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { AdminActionResult } from "@/lib/admin/action";
import { format } from "@/lib/i18n/format";
import type { DeliveryStatus, DeliveryStep } from "@/lib/intents/states";
import { MANUAL_FAILURES, MANUAL_SENT_STEPS } from "@/lib/schemas/admin-delivery";
import { useHydrated } from "@/components/ui/use-hydrated";

export interface DeliveryActionsProps {
  deliveryId: string;
  status: DeliveryStatus;
  step: DeliveryStep;
  /** `manual` is worked by people; any other provider is automatic and may only be retried. */
  provider: string;
  /** Which sent steps apply: a gift goes by friend request and gift, gear by trade offer; both when unknown. */
  kind?: "gift" | "gear";
  assignedTo: string | null;
  assigneeEmail: string | null;
  viewerId: string;
  /** The viewer holds `orders:fulfil`; the server checks it again on every action. */
  canFulfil: boolean;
}

type Done = "take" | "release" | "sent" | "delivered" | "failed" | "retry";

const OPEN: DeliveryStatus[] = ["created", "pending", "retrying"];

/**
 * What a person can do with a delivery, on the queue and on an order's page: take it (only one
 * person can), say a step was sent, that it was delivered, or that it failed (after a
 * confirmation, since the money goes back), give it back; or push an automatic one to retry now.
 */
export function DeliveryActions(props: DeliveryActionsProps) {
  const { t } = useI18n();
  const m = t.adminPartners.actions;
  const router = useRouter();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  if (!props.canFulfil || !OPEN.includes(props.status)) return null;

  async function run(done: Done, call: () => Promise<AdminActionResult>) {
    setPending(true);
    setMessage(null);
    try {
      const result = await call();
      if (result.ok) {
        dialog.current?.close();
        setMessage({ text: m.done[done], error: false });
        router.refresh();
      } else {
        setMessage({ text: t.errors.reasons[result.reason] ?? m.generic, error: true });
        // Someone else took it meanwhile, or it ended: show the delivery as it is now.
        router.refresh();
      }
    } catch {
      setMessage({ text: m.generic, error: true });
    } finally {
      setPending(false);
    }
  }

  const { deliveryId } = props;
  const status = (
    <p role="status" className={`text-sm ${message?.error ? "text-red-300" : "text-emerald-300"}`}>
      {message?.text}
    </p>
  );
  const group = (children: React.ReactNode) => (
    <div role="group" aria-label={m.label} className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">{children}</div>
      {status}
    </div>
  );

  if (props.provider !== "manual") {
    return group(
      <button
        type="button"
        disabled={!hydrated || pending}
        className={secondaryButtonClass}
        onClick={() => run("retry", () => retryDeliveryAction({ deliveryId }))}
      >
        {pending ? m.working : m.retry}
      </button>,
    );
  }

  if (!props.assignedTo) {
    return group(
      <button
        type="button"
        disabled={!hydrated || pending}
        className={primaryButtonClass}
        onClick={() => run("take", () => takeDeliveryAction({ deliveryId }))}
      >
        {pending ? m.working : m.take}
      </button>,
    );
  }

  if (props.assignedTo !== props.viewerId) {
    return (
      <div className="space-y-2">
        <p className="text-sm text-slate-300">{format(m.takenByOther, { email: props.assigneeEmail ?? "—" })}</p>
        {status}
      </div>
    );
  }

  const steps = MANUAL_SENT_STEPS.filter((s) =>
    props.kind === "gear" ? s === "trade_offer_sent" : props.kind === "gift" ? s !== "trade_offer_sent" : true,
  );
  const failures = MANUAL_FAILURES.filter((r) =>
    props.kind === "gear"
      ? !["friend_request_timeout", "friend_request_declined", "gift_declined", "invite_link_invalid", "region_mismatch"].includes(r)
      : props.kind === "gift"
        ? !["trade_offer_declined", "trade_offer_expired", "inventory_private", "trade_link_invalid"].includes(r)
        : true,
  );

  function onSent(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const step = String(new FormData(event.currentTarget).get("step")) as (typeof MANUAL_SENT_STEPS)[number];
    void run("sent", () => reportDeliveryAction({ deliveryId, outcome: "sent", step }));
  }

  function onFailed(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason")) as (typeof MANUAL_FAILURES)[number];
    void run("failed", () => reportDeliveryAction({ deliveryId, outcome: "failed", reason }));
  }

  return (
    <div role="group" aria-label={m.label} className="space-y-3">
      <form onSubmit={onSent} className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1">
          <label htmlFor={`${id}-step`} className={labelClass}>
            {m.sentStep}
          </label>
          <select
            id={`${id}-step`}
            name="step"
            className={`${inputClass} mt-1`}
            defaultValue={steps.find((s) => s !== props.step) ?? steps[0]}
          >
            {steps.map((s) => (
              <option key={s} value={s}>
                {m.steps[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={!hydrated || pending} className={secondaryButtonClass}>
          {m.markSent}
        </button>
      </form>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          disabled={!hydrated || pending}
          className={primaryButtonClass}
          onClick={() => run("delivered", () => reportDeliveryAction({ deliveryId, outcome: "delivered" }))}
        >
          {m.delivered}
        </button>
        <button
          type="button"
          disabled={!hydrated || pending}
          aria-haspopup="dialog"
          className={`${secondaryButtonClass} border-red-400/70 text-red-200 hover:bg-red-950`}
          onClick={() => {
            setMessage(null);
            dialog.current?.showModal();
            cancel.current?.focus();
          }}
        >
          {m.markFailed}
        </button>
        <button
          type="button"
          disabled={!hydrated || pending}
          className={secondaryButtonClass}
          onClick={() => run("release", () => releaseDeliveryAction({ deliveryId }))}
        >
          {m.release}
        </button>
      </div>
      {status}
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-fail-title`}
        aria-describedby={`${id}-fail-body`}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-700 bg-slate-900 p-6 text-slate-100 shadow-2xl backdrop:bg-black/70"
      >
        <form onSubmit={onFailed}>
          <h2 id={`${id}-fail-title`} className="text-lg font-semibold">
            {m.failTitle}
          </h2>
          <p id={`${id}-fail-body`} className="mt-2 text-sm leading-relaxed text-slate-300">
            {m.failBody}
          </p>
          <label htmlFor={`${id}-reason`} className={`${labelClass} mt-4`}>
            {m.failReason}
          </label>
          <select id={`${id}-reason`} name="reason" className={`${inputClass} mt-1`} defaultValue={failures[0]}>
            {failures.map((r) => (
              <option key={r} value={r}>
                {t.orders.failures[r]}
              </option>
            ))}
          </select>
          {message?.error ? (
            <p role="alert" className="mt-3 text-sm text-red-300">
              {message.text}
            </p>
          ) : null}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button ref={cancel} type="button" onClick={() => dialog.current?.close()} className={secondaryButtonClass}>
              {m.cancel}
            </button>
            <button type="submit" disabled={!hydrated || pending} className={dangerButtonClass}>
              {pending ? m.working : m.failConfirm}
            </button>
          </div>
        </form>
      </dialog>
    </div>
  );
}
