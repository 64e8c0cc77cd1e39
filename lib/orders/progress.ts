// How an order's timeline reads to its shopper: each recorded entry (lib/services/intent-lifecycle.ts
// loadTimeline) as a step in plain words, and a headline for where the order stands now. Pure and
// browser-safe: the order page renders it on the server and again as its live refresh arrives.
import type { Messages } from "@/lib/i18n/messages";
import { DELIVERY_FAILURES, type DeliveryFailure, type DeliveryStatus, type DeliveryStep, type IntentStatus } from "@/lib/intents/states";
import type { TimelineEntry } from "@/lib/schemas/intents";

type T = Messages["orders"];

/** What the order page's live refresh (GET /orders/{id}/status) answers. */
export interface OrderProgress {
  status: IntentStatus;
  deliveryStatus: DeliveryStatus | null;
  deliveryStep: DeliveryStep | null;
  timeline: TimelineEntry[];
}

/** Who delivers: people working the queue, or an automatic provider (a bot). */
export type DeliveredBy = "person" | "bot";

export type Tone = "done" | "waiting" | "problem" | "money";

export interface OrderStep {
  at: string;
  title: string;
  detail: string | null;
  tone: Tone;
}

const OPEN: readonly (DeliveryStatus | null)[] = [null, "created", "pending", "retrying"];

/** Paid and still on its way: the only state in which the page keeps asking for news. */
export function isInProgress(progress: Pick<OrderProgress, "status" | "deliveryStatus">): boolean {
  return progress.status === "paid" && OPEN.includes(progress.deliveryStatus);
}

export function failureText(reason: string | null, t: T): string {
  const known = (DELIVERY_FAILURES as readonly string[]).includes(reason ?? "");
  return known ? t.failures[reason as DeliveryFailure] : t.failures.other;
}

/** A refund's recorded reason is `delivery_failed`, `operator` or `partner`, perhaps with `: note` (internal, not shown). */
function refundText(reason: string | null, t: T): string | null {
  const by = reason?.split(":")[0]?.trim();
  return by === "delivery_failed" || by === "operator" || by === "partner" ? t.refundBy[by] : null;
}

function describeEntry(entry: TimelineEntry, kind: "gift" | "gear", t: T): Omit<OrderStep, "at"> | null {
  const s = t.steps;
  if (entry.kind === "status") {
    switch (entry.value) {
      case "requires_payment":
        return { title: s.created, detail: null, tone: "done" };
      case "paid":
        return { title: s.paid, detail: null, tone: "done" };
      case "canceled":
        return { title: s.canceled, detail: null, tone: "problem" };
      case "expired":
        return { title: s.expired, detail: null, tone: "problem" };
      case "fulfilled":
        return { title: s.fulfilled, detail: null, tone: "done" };
      case "refunded":
        return { title: s.refunded, detail: refundText(entry.reason, t), tone: "money" };
      default:
        return { title: s.unknown, detail: null, tone: "done" };
    }
  }
  switch (entry.value) {
    case "queued":
      return { title: entry.reason === "manual" ? s.queuedManual : s.queuedBot, detail: null, tone: "waiting" };
    case "taken":
      return { title: s.taken, detail: null, tone: "waiting" };
    case "friend_request_sent":
    case "gift_sent":
    case "trade_offer_sent":
      return { title: s[entry.value], detail: null, tone: "waiting" };
    case "accepted":
      return { title: kind === "gift" ? s.acceptedGift : s.acceptedGear, detail: null, tone: "done" };
    case "retrying":
      return { title: s.retrying, detail: failureText(entry.reason, t), tone: "problem" };
    case "failed":
      return { title: s.failed, detail: failureText(entry.reason, t), tone: "problem" };
    default:
      return { title: s.unknown, detail: null, tone: "waiting" };
  }
}

/**
 * The timeline as the shopper reads it, oldest first. The intent's own "fulfilled" repeats the
 * delivery's "accepted" that comes just before it, so it is shown only when there is no such entry
 * (orders delivered before deliveries were recorded).
 */
export function describeTimeline(timeline: readonly TimelineEntry[], kind: "gift" | "gear", t: T): OrderStep[] {
  const accepted = timeline.some((e) => e.kind === "delivery" && e.value === "accepted");
  return timeline.flatMap((entry) => {
    if (accepted && entry.kind === "status" && entry.value === "fulfilled") return [];
    const step = describeEntry(entry, kind, t);
    return step ? [{ at: entry.at, ...step }] : [];
  });
}

/** Where the order stands now, in a title and a sentence on what comes next. */
export function orderHeadline(progress: OrderProgress, by: DeliveredBy, t: T): { title: string; text: string; tone: Tone } {
  const h = t.headline;
  switch (progress.status) {
    case "requires_payment":
      return { ...h.requires_payment, tone: "waiting" };
    case "canceled":
      return { ...h.canceled, tone: "problem" };
    case "expired":
      return { ...h.expired, tone: "problem" };
    case "fulfilled":
      return { ...h.fulfilled, tone: "done" };
    case "refunded":
      return { ...h.refunded, tone: "money" };
    case "paid":
      break;
  }
  if (progress.deliveryStatus === "failed") return { ...h.failing, tone: "problem" };
  if (progress.deliveryStatus === "retrying") return { ...h.retrying, tone: "problem" };
  switch (progress.deliveryStep) {
    case "friend_request_sent":
      return { ...h.friendRequest, tone: "waiting" };
    case "gift_sent":
      return { ...h.giftSent, tone: "waiting" };
    case "trade_offer_sent":
      return { ...h.tradeOffer, tone: "waiting" };
    default:
      return { ...(by === "person" ? h.queuedManual : h.queuedBot), tone: "waiting" };
  }
}

/** An automatic provider is a bot; `manual` is people working the fulfilment queue. */
export function deliveredBy(provider: string | null): DeliveredBy {
  return provider === null || provider === "manual" ? "person" : "bot";
}
