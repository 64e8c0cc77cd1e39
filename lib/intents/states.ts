// The intent state machine for the application. drizzle/0003 enforces the same table in the
// database (trigger intents_guard_transition); the code checks first so it can answer clearly.

export const INTENT_STATUSES = ["requires_payment", "paid", "fulfilled", "canceled", "expired", "refunded"] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

/** Every move there is. A status not listed as a source is final. */
export const INTENT_TRANSITIONS: Readonly<Record<IntentStatus, readonly IntentStatus[]>> = {
  requires_payment: ["paid", "canceled", "expired"],
  // Paid: delivered, or the money goes back (delivery failed for good, an operator, the partner).
  paid: ["fulfilled", "refunded"],
  // A delivered order can still be refunded (by an operator or the partner); the item stays delivered.
  fulfilled: ["refunded"],
  canceled: [],
  expired: [],
  refunded: [],
};

/** Why money went back: the delivery failed for good, an operator, or the partner that made the intent. */
export const REFUND_REASONS = ["delivery_failed", "operator", "partner"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** The payment side of an intent, as the original service reports it beside the delivery. */
export type PaymentStatus = "pending" | "paid" | "rejected" | "refunded";

export function paymentStatusOf(status: IntentStatus): PaymentStatus {
  switch (status) {
    case "requires_payment":
      return "pending";
    case "paid":
    case "fulfilled":
      return "paid";
    case "canceled":
    case "expired":
      return "rejected";
    case "refunded":
      return "refunded";
  }
}

export const DELIVERY_STATUSES = ["created", "pending", "retrying", "delivered", "failed"] as const;
/** The delivery side: created with the payment, pending while a provider works on it, retrying after a failed attempt. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Where a delivery stands, step by step, as a shopper follows it. */
export const DELIVERY_STEPS = ["queued", "taken", "friend_request_sent", "gift_sent", "trade_offer_sent", "accepted"] as const;
export type DeliveryStep = (typeof DELIVERY_STEPS)[number];

/** Why a delivery failed, by name. */
export const DELIVERY_FAILURES = [
  "friend_request_timeout",
  "friend_request_declined",
  "gift_declined",
  "invite_link_invalid",
  "region_mismatch",
  "trade_offer_declined",
  "trade_offer_expired",
  "inventory_private",
  "trade_link_invalid",
  "provider_error",
  "operator_failed",
  /** The money went back (an operator or the partner) before the order was delivered. */
  "refunded_before_delivery",
] as const;
export type DeliveryFailure = (typeof DELIVERY_FAILURES)[number];

export function canTransition(from: IntentStatus, to: IntentStatus): boolean {
  return INTENT_TRANSITIONS[from].includes(to);
}

export class IntentTransitionError extends Error {
  constructor(
    readonly from: IntentStatus,
    readonly to: IntentStatus,
  ) {
    super(`an intent cannot move from ${from} to ${to}`);
    this.name = "IntentTransitionError";
  }
}

export function assertTransition(from: IntentStatus, to: IntentStatus): void {
  if (!canTransition(from, to)) throw new IntentTransitionError(from, to);
}

/**
 * The status as of `now`: an unpaid intent past its time is expired even before the sweep records
 * it, because from then on it holds no stock and cannot be paid. The recorded expiry time is the
 * same either way (the trigger stamps `expired_at` with `expires_at`).
 */
export function effectiveStatus(status: IntentStatus, expiresAt: Date, now: Date): IntentStatus {
  return status === "requires_payment" && expiresAt.getTime() <= now.getTime() ? "expired" : status;
}
