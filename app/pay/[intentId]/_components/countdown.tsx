"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { format } from "@/lib/i18n/format";

function clock(seconds: number): string {
  const s = Math.max(0, seconds);
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * Time left to pay. The server renders the starting value, so the page says it without JavaScript;
 * the browser then counts down from that, not from its own clock, which may be wrong. At zero the
 * page is rendered again by the server, which then shows the intent as expired.
 */
export function Countdown({ secondsLeft }: { secondsLeft: number }) {
  const { t } = useI18n();
  const router = useRouter();
  const [left, setLeft] = useState(secondsLeft);

  useEffect(() => {
    const deadline = Date.now() + secondsLeft * 1000;
    const timer = setInterval(() => {
      const next = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setLeft(next);
      if (next === 0) {
        clearInterval(timer);
        setTimeout(() => router.refresh(), 1000);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [secondsLeft, router]);

  if (left <= 0) return <p className="font-medium text-amber-300">{t.pay.deadline.over}</p>;
  // role="timer" is not announced on every tick; the deadline beside it is the accessible statement.
  return (
    <p role="timer" className="font-mono text-lg text-slate-100 tabular-nums">
      {format(t.pay.deadline.left, { time: clock(left) })}
    </p>
  );
}
