import "server-only";
import type { Database } from "@/lib/db/client";
import { paymentProvider } from "@/lib/payments";
import type { PaymentProvider } from "@/lib/payments/provider";
import type { IntentStatus } from "@/lib/intents/states";
import { isDomainError } from "@/lib/errors";
import { CURRENCY } from "@/lib/money";
import { paymentPagePath, paymentResultPath } from "@/lib/payments/paths";
import { redirectUrlOf } from "@/lib/schemas/common";
import { cancelIntent, findIntentView, payIntent, type IntentView } from "./intent-lifecycle";

export const PAYMENT_CHOICES = ["pay", "decline"] as const;
export type PaymentChoice = (typeof PAYMENT_CHOICES)[number];

// Only URLs stored (and validated) when the intent was created, or the store's own pages: nothing
// a request carries can choose where the buyer is sent, so the page is no open redirect.
const successTarget = (view: Pick<IntentView, "id" | "successUrl">) => storedTarget(view.successUrl, view.id);
const failureTarget = (view: Pick<IntentView, "id" | "failureUrl">) => storedTarget(view.failureUrl, view.id);

/**
 * A stored URL as a `Location` value. Intents created before URLs were stored normalised may hold
 * one as the partner typed it (a Cyrillic host, a line break), which no header can carry; its
 * `href` is the same address in ASCII. One that no longer passes the rule gets the result page.
 */
function storedTarget(stored: string | null, intentId: string): string {
  return (stored ? redirectUrlOf(stored)?.href : undefined) ?? paymentResultPath(intentId);
}

/** Where the buyer goes after pressing `choice`, given the state the intent is in now. */
function targetFor(view: Pick<IntentView, "id" | "successUrl" | "failureUrl">, choice: PaymentChoice, status: IntentStatus): string {
  // A second press (a double click, a resubmitted form) lands where the first one did.
  if (choice === "pay" && (status === "paid" || status === "fulfilled")) return successTarget(view);
  if (choice === "decline" && (status === "canceled" || status === "expired")) return failureTarget(view);
  // Anything else (paying an expired or declined intent, declining a paid one) was refused:
  // the payment page says what state the intent is in.
  return paymentPagePath(view.id);
}

export type PaymentSubmission = { found: false } | { found: true; location: string };

/**
 * The buyer pressed Pay or Decline on the payment page. Pay goes through the payment provider;
 * Decline cancels the intent, which gives the gear unit and promo-code use back at once. Holding
 * the page's link is the permission, as with a hosted checkout session: the id is 122 random bits.
 */
export async function submitPaymentChoice(
  db: Database,
  intentId: string,
  choice: PaymentChoice,
  origin: string,
  provider: PaymentProvider = paymentProvider(),
): Promise<PaymentSubmission> {
  const view = await findIntentView(db, intentId);
  if (!view) return { found: false };
  if (view.status !== "requires_payment") return { found: true, location: targetFor(view, choice, view.status) };
  try {
    if (choice === "decline") {
      await cancelIntent(db, intentId, origin);
      return { found: true, location: failureTarget(view) };
    }
    const started = await provider.startPayment({
      intentId,
      amount: view.paymentAmount,
      currency: CURRENCY,
      description: view.kind === "gift" ? `${view.gameTitle} (${view.edition}), gift` : `${view.gearTitle}, ${view.gameTitle}`,
      email: view.email,
      returnUrl: `${origin}${paymentResultPath(intentId)}`,
    });
    if (started.outcome === "redirect") return { found: true, location: started.redirectUrl };
    await payIntent(db, intentId, { provider: provider.id, providerPaymentId: started.providerPaymentId, origin });
    return { found: true, location: successTarget(view) };
  } catch (err) {
    // Another tab, the sweep or the clock got there between reading and moving.
    if (isDomainError(err, "intent_state_conflict")) return { found: true, location: targetFor(view, choice, err.details.current) };
    throw err;
  }
}
