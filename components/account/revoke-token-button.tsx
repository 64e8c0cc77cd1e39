"use client";

import { useId, useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format } from "@/lib/i18n/format";
import { dangerButtonClass, secondaryButtonClass } from "./styles";
import type { RevokeTokenResult as RevokeResult } from "@/lib/schemas/tokens";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * "Revoke" and its confirmation in a modal <dialog>: the browser traps focus in it, Escape
 * cancels, and focus returns to the button on close. Cancel comes first, so Enter does no harm.
 */
export function RevokeTokenButton({
  tokenId,
  name,
  action,
  onRevoked,
}: {
  tokenId: string;
  name: string;
  action: (id: string) => Promise<RevokeResult>;
  onRevoked: (name: string) => void;
}) {
  const { t } = useI18n();
  const m = t.account.tokens;
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      const result = await action(tokenId);
      if (result.ok) {
        dialog.current?.close();
        onRevoked(name);
        return;
      }
      setError(t.errors.reasons[result.reason]);
    } catch {
      setError(t.account.errors.generic);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={() => {
          setError(null);
          dialog.current?.showModal();
          // Browsers differ on what a modal focuses first; the harmless choice, explicitly.
          cancel.current?.focus();
        }}
        aria-label={format(m.revokeLabel, { name })}
        aria-haspopup="dialog"
        className={`${secondaryButtonClass} border-red-400/70 text-red-200 hover:bg-red-950`}
      >
        {m.revoke}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-700 bg-slate-900 p-6 text-slate-100 shadow-2xl backdrop:bg-black/70"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold break-words">
          {format(m.revokeTitle, { name })}
        </h2>
        <p id={`${id}-body`} className="mt-2 text-sm leading-relaxed text-slate-300">
          {m.revokeBody}
        </p>
        {error ? (
          <p role="alert" className="mt-3 text-sm text-red-300">
            {error}
          </p>
        ) : null}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button ref={cancel} type="button" onClick={() => dialog.current?.close()} className={secondaryButtonClass}>
            {m.cancel}
          </button>
          <button type="button" onClick={confirm} disabled={!hydrated || pending} className={dangerButtonClass}>
            {pending ? m.revoking : m.revokeConfirm}
          </button>
        </div>
      </dialog>
    </>
  );
}
