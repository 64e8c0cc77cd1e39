"use client";

import { useEffect, useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { secondaryButtonClass } from "./styles";

/** document.execCommand is deprecated but is what works where the Clipboard API is missing or refused. */
function legacyCopy(value: string): boolean {
  const area = document.createElement("textarea");
  area.value = value;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Copies `value`: the Clipboard API, then the old selection way, and when both fail it selects the
 * text in `selectTarget` and tells the shopper to press Ctrl+C. The outcome is announced to screen
 * readers. The button's name stays "Copy ..." so voice control finds it by what it shows.
 */
export function CopyButton({
  value,
  label,
  selectTarget,
}: {
  value: string;
  /** Accessible name, starting with the visible word ("Copy token"). */
  label?: string;
  selectTarget?: React.RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
}) {
  const { t } = useI18n();
  const [outcome, setOutcome] = useState<"idle" | "copied" | "manual">("idle");
  const reset = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(reset.current), []);

  async function copy() {
    let ok: boolean;
    try {
      await navigator.clipboard.writeText(value);
      ok = true;
    } catch {
      ok = legacyCopy(value);
    }
    clearTimeout(reset.current);
    if (ok) {
      setOutcome("copied");
      reset.current = setTimeout(() => setOutcome("idle"), 4000);
    } else {
      setOutcome("manual");
      selectTarget?.current?.focus();
      selectTarget?.current?.select();
    }
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-x-3 gap-y-1">
      <button type="button" onClick={copy} aria-label={label} className={secondaryButtonClass}>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
          <path d="M7 2a2 2 0 0 0-2 2v1H4a2 2 0 0 0-2 2v9a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2v-1h1a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2H7Zm5 13v1H4V7h1v6a2 2 0 0 0 2 2h5Zm3-11v9H7V4h8Z" />
        </svg>
        {t.account.copy.copy}
      </button>
      <span role="status" className={outcome === "manual" ? "text-sm text-amber-200" : "text-sm text-emerald-300"}>
        {outcome === "copied" ? t.account.copy.copied : outcome === "manual" ? t.account.copy.manual : ""}
      </span>
    </span>
  );
}
