"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { revokePartnerTokenAction } from "@/app/admin/partners/actions";
import { dangerButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format } from "@/lib/i18n/format";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * Revokes a partner's token after a confirmation in a modal <dialog> (focus is trapped in it,
 * Escape cancels, Cancel comes first so Enter does no harm); the page then shows it revoked. It stays
 * mounted once the token is revoked (`revoked`), so its notice outlives the page's refresh.
 */
export function RevokePartnerToken({ tokenId, name, revoked }: { tokenId: string; name: string; revoked: boolean }) {
  const { t } = useI18n();
  const m = t.adminPartners.partners;
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const id = useId();

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      const result = await revokePartnerTokenAction({ tokenId });
      if (result.ok) {
        dialog.current?.close();
        setDone(true);
        router.refresh();
        return;
      }
      setError(t.errors.reasons[result.reason]);
    } catch {
      setError(t.adminPartners.actions.generic);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      {done ? (
        <p role="status" className="text-sm text-emerald-300">
          {format(m.revoked, { name })}
        </p>
      ) : revoked ? null : (
        <button
          type="button"
          onClick={() => {
            setError(null);
            dialog.current?.showModal();
            cancel.current?.focus();
          }}
          aria-label={format(m.revokeLabel, { name })}
          aria-haspopup="dialog"
          className={`${secondaryButtonClass} border-red-400/70 text-red-200 hover:bg-red-950`}
        >
          {m.revoke}
        </button>
      )}
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
