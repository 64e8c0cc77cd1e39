"use client";

import { useId, useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { CopyButton } from "./copy-button";
import { inputClass, secondaryButtonClass } from "./styles";

const PREFIX = "whsec_";

/**
 * A signing secret (the owner's, or an endpoint's with `texts`): masked until revealed
 * (shoulder-surfing), copyable either way.
 */
export function WebhookSecret({ secret, texts }: { secret: string; texts?: { label: string; revealLabel: string; hideLabel: string } }) {
  const { t } = useI18n();
  const m = { ...t.account.secret, ...texts };
  const [revealed, setRevealed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div>
      <p id={`${id}-label`} className="text-sm font-medium text-slate-200">
        {m.label}
      </p>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
        {revealed ? (
          <input
            ref={input}
            id={`${id}-value`}
            readOnly
            value={secret}
            aria-labelledby={`${id}-label`}
            onFocus={(e) => e.currentTarget.select()}
            className={`${inputClass} font-mono text-sm sm:flex-1`}
          />
        ) : (
          <p className="rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-sm sm:flex-1">
            <span aria-hidden="true">
              {PREFIX}
              {"•".repeat(24)}
            </span>
            <span className="sr-only">{m.hidden}</span>
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={() => setRevealed((v) => !v)}
            aria-label={revealed ? m.hideLabel : m.revealLabel}
            aria-controls={revealed ? `${id}-value` : undefined}
            className={secondaryButtonClass}
          >
            {revealed ? m.hide : m.reveal}
          </button>
          <CopyButton value={secret} label={`${t.account.copy.copy}: ${m.label}`} selectTarget={revealed ? input : undefined} />
        </div>
      </div>
    </div>
  );
}
