import "server-only";

/** What a provider needs to know to take a payment for an intent. */
export interface PaymentRequest {
  intentId: string;
  /** Kopecks, RUB. */
  amount: number;
  currency: "RUB";
  /** One line for the provider's page and the bank statement ("Portal 2 — gift"). */
  description: string;
  email: string;
  /** Where the provider sends the buyer back when it is done: the store's result page for the intent. */
  returnUrl: string;
}

/**
 * How starting a payment went. `succeeded`: the provider took the money on the spot (the sandbox).
 * `redirect`: the buyer pays on the provider's own page, and the provider reports the outcome
 * later (a notification handled by `handleNotification`).
 */
export type PaymentStart =
  { outcome: "succeeded"; providerPaymentId: string } | { outcome: "redirect"; redirectUrl: string; providerPaymentId: string };

/** A provider's report about a payment, verified. */
export interface PaymentNotification {
  intentId: string;
  outcome: "succeeded" | "declined";
  providerPaymentId: string;
}

/**
 * A payment provider behind the store's payment page /pay/{intentId}. The page shows what is bought
 * and the amount; the provider takes the money. The store alone moves intents between states (in
 * lib/services/intent-lifecycle.ts), so an adapter only translates.
 *
 * A hosted provider (YooKassa, Stripe) is one more adapter: `startPayment` creates its payment
 * (keyed by the intent id, so a repeated press reuses it) and answers `redirect` with its
 * confirmation page; a route /api/payments/{provider} passes the provider's notifications to
 * `handleNotification`, which verifies them (signature or a read-back from the provider's API)
 * before the store pays or cancels the intent.
 */
export interface PaymentProvider {
  /** Stored on the intent as `payment_provider`. */
  readonly id: string;
  /** No money moves: the payment page says so prominently. */
  readonly sandbox: boolean;
  /** The buyer pressed Pay on the payment page. (Decline needs no provider: the store cancels the intent.) */
  startPayment(request: PaymentRequest): Promise<PaymentStart>;
  /** Reads and verifies an asynchronous report; null when the provider has none (the sandbox). */
  handleNotification?(request: Request): Promise<PaymentNotification | null>;
  /**
   * Gives the whole payment back. Keyed by the intent, so asking twice refunds once (a real
   * provider's idempotency key); answers the provider's reference for the refund.
   */
  refund(request: RefundRequest): Promise<{ providerRefundId: string }>;
}

export interface RefundRequest {
  intentId: string;
  /** The provider's reference of the payment being refunded. */
  providerPaymentId: string;
  /** Kopecks, the whole payment. */
  amount: number;
}
