"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { secondaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { AdminActionResult } from "@/lib/admin/action";
import { format } from "@/lib/i18n/format";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * One button that runs a back-office action with a fixed input (disable a code, hide a game), then
 * re-reads the page; a refusal is shown beside it in the reader's language, by its reason.
 */
export function ActionButton<I>({
  action,
  input,
  label,
  ariaLabel,
  done,
  className = secondaryButtonClass,
}: {
  action: (input: I) => Promise<AdminActionResult>;
  input: I;
  label: string;
  ariaLabel?: string;
  /** Said (politely, to screen readers too) once the action succeeded. */
  done: string;
  className?: string;
}) {
  const { t } = useI18n();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function run() {
    setPending(true);
    setMessage(null);
    try {
      const result = await action(input);
      if (result.ok) {
        setMessage({ error: false, text: done });
        router.refresh();
      } else setMessage({ error: true, text: format(t.errors.reasons[result.reason], stringValues(result.details)) });
    } catch {
      setMessage({ error: true, text: t.adminCatalog.common.generic });
    } finally {
      setPending(false);
    }
  }

  return (
    // The status is always there (a live region must exist before it speaks) but takes no room
    // while empty, so two such buttons side by side in a table cell do not wrap for nothing.
    <span className="inline-flex flex-wrap items-center gap-y-2">
      <button type="button" onClick={run} disabled={!hydrated || pending} aria-label={ariaLabel} className={className}>
        {label}
      </button>
      <span role="status" className={`${message ? "ml-2" : ""} text-sm ${message?.error ? "text-red-300" : "text-emerald-300"}`}>
        {message?.text}
      </span>
    </span>
  );
}

/** A refusal's details as placeholder values ({code}, {uses}); anything not a string or number is left out. */
export function stringValues(details: Record<string, unknown> | undefined): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(details ?? {})) if (typeof v === "string" || typeof v === "number") out[k] = v;
  return out;
}
