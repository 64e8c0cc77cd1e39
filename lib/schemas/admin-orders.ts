import { z } from "zod";
import { REFUND_NOTE_MAX, REFUND_NOTE_MIN } from "@/lib/intents/refund-policy";
import { DELIVERY_STATUSES, INTENT_STATUSES } from "@/lib/intents/states";
import { adminDaySchema } from "./bounds";

// The back office's order list (/admin/orders) and its CSV export read the same URL parameters.
// A value that does not parse is dropped rather than refused: a hand-edited or stale bookmark
// still opens the list, with that filter off.

export const ADMIN_ORDER_SORTS = ["created", "amount", "state"] as const;
export const ADMIN_ORDERS_PAGE_SIZE = 25;
/** Rows one CSV export holds at most (its X-Export-Rows and X-Export-Truncated headers tell when it stopped there). */
export const ADMIN_ORDERS_EXPORT_MAX = 50_000;
/**
 * The list counts its matches up to this many and shows "10,000+" beyond: an exact count of a
 * million orders reads them all, for a figure nobody pages through.
 */
export const ADMIN_ORDERS_COUNT_CAP = 10_000;

const text = (max: number) =>
  z
    .preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().trim().max(max).optional().catch(undefined))
    .transform((v) => v || undefined);

const day = z.preprocess((v) => (Array.isArray(v) ? v[0] : v), adminDaySchema.optional().catch(undefined)).transform((v) => v || undefined);

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.enum(values).optional().catch(undefined));

export const adminOrderFilterSchema = z.object({
  /** The intent's state; `expired` includes unpaid intents past their time that the sweep has not recorded yet. */
  state: oneOf(INTENT_STATUSES),
  /** The delivery's status, or `none` for intents without a delivery (never paid). */
  delivery: oneOf([...DELIVERY_STATUSES, "none"]),
  kind: oneOf(["gift", "gear"]),
  /** An app id (digits) or part of a game's title. */
  game: text(200),
  /** Created on or after this day (UTC). */
  from: day,
  /** Created on or before this day (UTC). */
  to: day,
  /** attribution.utm_campaign, exactly. */
  campaign: text(200),
  /** attribution.utm_source, exactly. */
  source: text(200),
  /** An order id (or its first characters), an e-mail (or its beginning), an invite link, a SteamID64. */
  q: text(300),
  sort: oneOf(ADMIN_ORDER_SORTS),
  dir: oneOf(["asc", "desc"]),
  page: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.coerce.number().int().min(1).max(100_000).optional().catch(undefined)),
});

export type AdminOrderFilter = z.output<typeof adminOrderFilterSchema>;

/** The filter as URL parameters (page left out), for links that keep it: paging, sorting, the export. */
export function adminOrderFilterParams(filter: AdminOrderFilter): Record<string, string | undefined> {
  const { page: _page, ...rest } = filter;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v === undefined ? undefined : String(v)]));
}

export const refundOrderRequestSchema = z.object({
  intentId: z.uuid({ error: "intentId must be an order id" }),
  note: z
    .string({ error: "the reason must be text" })
    .trim()
    .min(REFUND_NOTE_MIN, { error: `say why the money goes back (at least ${REFUND_NOTE_MIN} characters)` })
    .max(REFUND_NOTE_MAX, { error: `the reason must be at most ${REFUND_NOTE_MAX} characters` }),
});

export const MAIL_KINDS_RESENDABLE = ["receipt", "delivered", "delivery_failed_refunded", "refunded"] as const;

export const resendOrderMailRequestSchema = z.object({
  intentId: z.uuid({ error: "intentId must be an order id" }),
  kind: z.enum(MAIL_KINDS_RESENDABLE, { error: "kind must be one of the order's e-mails" }),
});

export const resendOrderCallbackRequestSchema = z.object({
  intentId: z.uuid({ error: "intentId must be an order id" }),
  deliveryId: z.uuid({ error: "deliveryId must be a callback id" }),
});
