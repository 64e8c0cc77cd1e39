"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { dangerButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { AdminActionResult } from "@/lib/admin/action";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * A back-office button whose action needs a second look: a modal <dialog> (the browser traps focus,
 * Escape cancels, focus returns to the button) with Cancel first, so Enter does no harm. On success
 * the page's server data is read again; a refusal is shown in the dialog in the viewer's language.
 */
export function ConfirmButton<I>({
  label,
  question,
  confirmLabel,
  action,
  input,
  accessibleName,
  className = secondaryButtonClass,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  /** A server action (made with adminAction) and what to call it with. */
  action: (input: I) => Promise<AdminActionResult>;
  input: I;
  /** When several such buttons share a page: says which row it acts on. */
  accessibleName?: string;
  className?: string;
}) {
  const { t } = useI18n();
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      const result = await action(input);
      if (result.ok) {
        dialog.current?.close();
        router.refresh();
      } else {
        setError(t.errors.reasons[result.reason]);
      }
    } catch {
      setError(t.admin.generic);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <button type="button" className={className} aria-label={accessibleName} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-q`}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-slate-600 bg-slate-900 p-5 text-slate-100 backdrop:bg-black/70"
        onClose={() => setError(null)}
      >
        <p id={`${id}-q`} className="font-semibold">
          {question}
        </p>
        {error ? (
          <p role="alert" className="mt-3 text-sm text-red-300">
            {error}
          </p>
        ) : null}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <button type="button" className={secondaryButtonClass} onClick={() => dialog.current?.close()}>
            {t.admin.cancel}
          </button>
          <button type="button" className={dangerButtonClass} disabled={!hydrated || pending} onClick={confirm}>
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
