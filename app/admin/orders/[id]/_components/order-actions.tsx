"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { dangerButtonClass, fieldErrorClass, hintClass, inputClass, labelClass, secondaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { AdminActionResult } from "@/lib/admin/action";
import { REFUND_NOTE_MAX, REFUND_NOTE_MIN } from "@/lib/intents/refund-policy";
import { format } from "@/lib/i18n/format";
import type { MailKind } from "@/lib/mail/kinds";
import { refundOrderAction, resendOrderCallbackAction, resendOrderMailAction } from "../../actions";
import { useHydrated } from "@/components/ui/use-hydrated";

/** The refusal's text in the viewer's language, by reason (never the server's message). */
function useRefusal() {
  const { t } = useI18n();
  return (result: AdminActionResult) => (result.ok ? null : (t.errors.reasons[result.reason] ?? t.adminOrders.genericError));
}

/**
 * "Refund" and its confirmation in a modal <dialog> that asks for the reason (required, and checked
 * again on the server): the browser traps focus in it, Escape cancels, and Cancel comes first so
 * Enter in the wrong place refunds nothing. A delivered order says that its delivery stays.
 */
export function RefundButton({
  intentId,
  shortId,
  amount,
  delivered,
}: {
  intentId: string;
  shortId: string;
  amount: string;
  delivered: boolean;
}) {
  const { t } = useI18n();
  const m = t.adminOrders.refund;
  const refusal = useRefusal();
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const id = useId();

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const note = String(new FormData(event.currentTarget).get("note") ?? "");
    setPending(true);
    setError(null);
    try {
      const result = await refundOrderAction({ intentId, note });
      if (result.ok) {
        dialog.current?.close();
        setDone(true);
        router.refresh();
      } else setError(!result.ok && result.reason === "invalid_field" && result.param === "note" ? m.reasonRequired : refusal(result));
    } catch {
      setError(t.adminOrders.genericError);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
        }}
        className={`${secondaryButtonClass} border-red-400/70 text-red-200 hover:bg-red-950`}
      >
        {m.button}
      </button>
      {done ? (
        <p role="status" className="text-sm text-emerald-300">
          {m.done}
        </p>
      ) : null}
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-700 bg-slate-900 p-6 text-slate-100 shadow-2xl backdrop:bg-black/70"
      >
        <form onSubmit={submit}>
          <h2 id={`${id}-title`} className="text-lg font-semibold break-words">
            {format(m.title, { id: shortId })}
          </h2>
          <p id={`${id}-body`} className="mt-2 text-sm leading-relaxed text-slate-300">
            {format(delivered ? m.bodyDelivered : m.body, { amount })}
          </p>
          <label htmlFor={`${id}-note`} className={`${labelClass} mt-4`}>
            {m.reason}
          </label>
          <textarea
            id={`${id}-note`}
            name="note"
            required
            minLength={REFUND_NOTE_MIN}
            maxLength={REFUND_NOTE_MAX}
            rows={3}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
            aria-invalid={error ? true : undefined}
            className={`${inputClass} mt-1`}
          />
          <p id={`${id}-hint`} className={hintClass}>
            {m.reasonHint}
          </p>
          {error ? (
            <p id={`${id}-error`} role="alert" className={fieldErrorClass}>
              {error}
            </p>
          ) : null}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button type="button" onClick={() => dialog.current?.close()} className={secondaryButtonClass}>
              {m.cancel}
            </button>
            <button type="submit" disabled={!hydrated || pending} className={dangerButtonClass}>
              {pending ? m.pending : m.confirm}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** One "send again" button: an e-mail of the order (by kind) or one of its callbacks (by delivery id). */
export function ResendButton(
  props: { label: string; text: string } & ({ intentId: string; mailKind: MailKind } | { intentId: string; callbackId: string }),
) {
  const { t } = useI18n();
  const m = t.adminOrders.resend;
  const refusal = useRefusal();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function resend() {
    setPending(true);
    setMessage(null);
    try {
      const result =
        "mailKind" in props
          ? await resendOrderMailAction({ intentId: props.intentId, kind: props.mailKind })
          : await resendOrderCallbackAction({ intentId: props.intentId, deliveryId: props.callbackId });
      if (result.ok) {
        setMessage({ ok: true, text: "mailKind" in props ? m.mailQueued : m.callbackQueued });
        router.refresh();
      } else setMessage({ ok: false, text: refusal(result) ?? t.adminOrders.genericError });
    } catch {
      setMessage({ ok: false, text: t.adminOrders.genericError });
    } finally {
      setPending(false);
    }
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" onClick={resend} disabled={!hydrated || pending} aria-label={props.label} className={secondaryButtonClass}>
        {pending ? m.pending : props.text}
      </button>
      <span role="status" className={message?.ok === false ? "text-sm text-red-300" : "text-sm text-emerald-300"}>
        {message?.text ?? ""}
      </span>
    </span>
  );
}
