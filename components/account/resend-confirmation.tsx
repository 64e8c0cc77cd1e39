"use client";

import { useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format } from "@/lib/i18n/format";
import type { ResendConfirmationResult } from "@/lib/schemas/account";
import { secondaryButtonClass } from "./styles";
import { useHydrated } from "@/components/ui/use-hydrated";

/** "Send the e-mail again" and what came of it, announced; the limit is the server's. */
export function ResendConfirmation({ email, action }: { email: string; action: () => Promise<ResendConfirmationResult> }) {
  const { t } = useI18n();
  const m = t.account.email;
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<"sent" | "alreadyConfirmed" | "tooMany" | "generic" | null>(null);

  async function send() {
    setPending(true);
    setOutcome(null);
    const result = await action().catch(() => null);
    setPending(false);
    if (!result) return setOutcome("generic");
    if (result.ok) return setOutcome(result.sent ? "sent" : "alreadyConfirmed");
    setOutcome(result.reason === "rate_limited" ? "tooMany" : "generic");
  }

  const text =
    outcome === "sent"
      ? format(m.resent, { email })
      : outcome === "alreadyConfirmed"
        ? m.alreadyConfirmed
        : outcome === "tooMany"
          ? m.tooMany
          : outcome === "generic"
            ? t.account.errors.generic
            : null;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2">
      <button type="button" onClick={send} disabled={!hydrated || pending} className={secondaryButtonClass}>
        {pending ? m.resending : m.resend}
      </button>
      <p role="status" className={`text-sm ${outcome === "sent" || outcome === "alreadyConfirmed" ? "text-emerald-200" : "text-red-200"}`}>
        {text}
      </p>
    </div>
  );
}
