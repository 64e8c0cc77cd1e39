import type { DeliveryStatus, IntentStatus, RefundReason } from "./states";

// Who may give an order's money back, and when: the one rule every path asks (the API's refund,
// the back office's order page and its action, the delivery worker). Pure, so the page can ask
// it to decide whether to offer a refund, and lib/services/refunds.ts asks it again with the
// intent and its delivery locked, where the answer counts.
//
// A partner refunds through the API only until the order is delivered: after that the recipient
// has the game or the item, and money going back is a decision for the store's staff, with a
// written reason the audit log keeps. A shopper's own token never refunds (issue 24: a shopper
// refunded their own delivered order and kept the gift).

/** Who asks for the money back. */
export type RefundAsker =
  /** POST /intents/{id}/refund: the owner of the token that made the intent, a partner or not. */
  | { kind: "partner"; isPartner: boolean }
  /** The back office, a staff member with `orders:refund` (the permission is checked before). */
  | { kind: "staff" }
  /** The delivery worker, when a delivery failed for good. */
  | { kind: "delivery_failed" };

/** What the policy reads of an order: its state, and its delivery's (null before payment). */
export interface RefundSubject {
  status: IntentStatus;
  deliveryStatus: DeliveryStatus | null;
}

export type RefundRefusal = "partner_required" | "intent_already_delivered" | "intent_state_conflict";

export type RefundDecision = { allowed: true; reason: RefundReason; noteRequired: boolean } | { allowed: false; refusal: RefundRefusal };

/** A staff member's reason for a refund, trimmed: at least this long, at most NOTE_MAX. */
export const REFUND_NOTE_MIN = 3;
export const REFUND_NOTE_MAX = 500;

const REASON_OF: Record<RefundAsker["kind"], RefundReason> = { partner: "partner", staff: "operator", delivery_failed: "delivery_failed" };

/** Delivery has succeeded: the recipient has what was bought. */
export const isDelivered = (subject: RefundSubject): boolean => subject.status === "fulfilled" || subject.deliveryStatus === "delivered";

export function decideRefund(subject: RefundSubject, asker: RefundAsker): RefundDecision {
  if (asker.kind === "partner" && !asker.isPartner) return { allowed: false, refusal: "partner_required" };
  if (subject.status !== "paid" && subject.status !== "fulfilled") return { allowed: false, refusal: "intent_state_conflict" };
  if (isDelivered(subject) && asker.kind !== "staff") return { allowed: false, refusal: "intent_already_delivered" };
  return { allowed: true, reason: REASON_OF[asker.kind], noteRequired: asker.kind === "staff" };
}
