import "server-only";
import { eq } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import { intents } from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import { canTransition, type IntentStatus, type RefundReason } from "@/lib/intents/states";
import { paymentProvider } from "@/lib/payments";
import type { PaymentProvider } from "@/lib/payments/provider";
import { isUuid } from "@/lib/schemas/common";
import { recordAudit, type Actor } from "./audit";
import { stopOpenDelivery } from "./delivery";
import type { PublicIntent } from "@/lib/schemas/intents";
import { getIntentForOwner, markIntentRefunded, type IntentView } from "./intent-lifecycle";
import type { AuthToken } from "./tokens";

/**
 * Gives a paid (or delivered) intent's money back, in one transaction with the intent locked: the
 * provider refunds (keyed by the intent, so a retry refunds once), the intent moves to refunded
 * (the database returns an undelivered gear unit to stock and the promo-code use), and a delivery
 * still under way is stopped. Who asks decides the reason: `delivery_failed` (the worker, after the
 * last failed attempt), `operator`, or `partner` (POST /intents/{id}/refund).
 */
export async function refundIntent(
  db: DbExecutor,
  intentId: string,
  refund: {
    reason: RefundReason;
    note?: string;
    origin: string;
    actor?: string;
    /** A staff member's refund from the back office: its audit entry commits with the refund. */
    audit?: Actor;
  },
  provider: PaymentProvider = paymentProvider(),
): Promise<IntentView> {
  if (!isUuid(intentId)) throw new DomainError("intent_not_found", { intentId: intentId.slice(0, 64) }, "intentId");
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ status: intents.status, amount: intents.paymentAmount, providerPaymentId: intents.providerPaymentId })
      .from(intents)
      .where(eq(intents.id, intentId))
      .for("update");
    if (!locked) throw new DomainError("intent_not_found", { intentId }, "intentId");
    const current: IntentStatus = locked.status;
    if (!canTransition(current, "refunded") || !locked.providerPaymentId) {
      throw new DomainError("intent_state_conflict", { intentId, current, target: "refunded" });
    }
    const { providerRefundId } = await provider.refund({ intentId, providerPaymentId: locked.providerPaymentId, amount: locked.amount });
    if (current === "paid") await stopOpenDelivery(tx, intentId, refund.actor);
    const { audit, ...move } = refund;
    const view = await markIntentRefunded(tx, intentId, { ...move, providerRefundId });
    if (audit) {
      await recordAudit(tx, audit, {
        action: "order.refund",
        targetType: "intent",
        targetId: intentId,
        before: { status: current, paymentAmount: locked.amount },
        after: { status: view.status, refundReason: view.refundReason, providerRefundId },
        note: refund.note ?? null,
      });
    }
    return view;
  });
}

/**
 * A partner's refund (POST /intents/{id}/refund): only the owner of the token that created the
 * intent may, exactly as only they may read it; anyone else's id is the same 404 as an unknown one.
 */
export async function refundIntentForOwner(
  db: DbExecutor,
  token: AuthToken,
  intentId: string,
  note: string | undefined,
  origin: string,
): Promise<PublicIntent> {
  await getIntentForOwner(db, token, intentId, origin);
  await refundIntent(db, intentId, { reason: "partner", note, origin, actor: `token ${token.name}` });
  return getIntentForOwner(db, token, intentId, origin);
}
