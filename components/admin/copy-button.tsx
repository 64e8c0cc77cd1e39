"use client";

import { useState, useSyncExternalStore } from "react";
import { secondaryButtonClass } from "@/components/account/styles";

/**
 * Copies `text` to the clipboard. Shown only once script runs: without it the link stays in its
 * read-only field, ready to be selected and copied by hand.
 */
export function CopyButton({ text, labels }: { text: string; labels: { copy: string; copied: string; copyFailed: string } }) {
  const ready = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  if (!ready) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()} className={secondaryButtonClass}>
        {labels.copy}
      </button>
      <p role="status" className="basis-full text-sm text-slate-300">
        {status === "copied" ? labels.copied : status === "failed" ? labels.copyFailed : ""}
      </p>
    </>
  );
}

const noSubscription = () => () => {};
