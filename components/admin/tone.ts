// A badge in one tone: badgeClass (components/admin/ui.tsx) fixes its own border and text colours,
// so a coloured state badge starts from these shared parts instead.
import type { PromoState } from "@/lib/schemas/admin-catalog";

const pill = "inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap";

export const toneBadge = {
  good: `${pill} border-emerald-400 text-emerald-200`,
  info: `${pill} border-sky-400 text-sky-200`,
  muted: `${pill} border-slate-500 text-slate-300`,
  warn: `${pill} border-amber-400 text-amber-200`,
  bad: `${pill} border-red-400 text-red-200`,
} as const;

/** A promo code's state (promoState) as a badge. */
export const STATE_TONE: Record<PromoState, string> = {
  active: toneBadge.good,
  scheduled: toneBadge.info,
  expired: toneBadge.muted,
  used_up: toneBadge.warn,
  disabled: toneBadge.bad,
};
