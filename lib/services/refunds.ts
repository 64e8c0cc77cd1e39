import "server-only";
import { eq } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import { deliveries, intents } from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import { decideRefund, REFUND_NOTE_MAX, REFUND_NOTE_MIN, type RefundAsker } from "@/lib/intents/refund-policy";
import type { IntentStatus } from "@/lib/intents/states";
import { paymentProvider } from "@/lib/payments";
import type { PaymentProvider } from "@/lib/payments/provider";
import { isUuid } from "@/lib/schemas/common";
import { recordAudit, type Actor } from "./audit";
import { stopOpenDelivery } from "./delivery";
import type { PublicIntent } from "@/lib/schemas/intents";
import { getIntentForOwner, markIntentRefunded, type IntentView } from "./intent-lifecycle";
import { lockPartner } from "./partner-status";
import type { AuthToken } from "./tokens";

/** Who asks for a refund, as the services know them; the policy (lib/intents/refund-policy.ts) decides. */
export type RefundRequester =
  /** POST /intents/{id}/refund: the owner of the creating token; `label` names the token in the timeline. */
  | { kind: "partner"; userId: string; label: string }
  /** A staff member with orders:refund; the refund and its audit entry commit together. */
  | { kind: "staff"; actor: Actor }
  /** The delivery worker after a delivery failed for good; `label` is the provider. */
  | { kind: "delivery_failed"; label: string };

/**
 * Gives a paid (or, by staff, a delivered) intent's money back, in one transaction: the policy is
 * asked with the order's delivery and the intent locked, in that order (the order every delivery
 * locks them in, so a delivery that succeeds at the same moment either commits first and the
 * refund sees it delivered, or waits and finds its delivery stopped); then the provider refunds
 * (keyed by the intent, so a retry refunds once), the intent moves to refunded (the database
 * returns an undelivered gear unit to stock and the promo-code use), and a delivery still under
 * way is stopped.
 */
export async function refundIntent(
  db: DbExecutor,
  intentId: string,
  refund: { by: RefundRequester; note?: string; origin: string },
  provider: PaymentProvider = paymentProvider(),
): Promise<IntentView> {
  if (!isUuid(intentId)) throw new DomainError("intent_not_found", { intentId: intentId.slice(0, 64) }, "intentId");
  const { by } = refund;
  const note = refund.note?.trim() || undefined;
  return db.transaction(async (tx) => {
    const [delivery] = await tx
      .select({ status: deliveries.status })
      .from(deliveries)
      .where(eq(deliveries.intentId, intentId))
      .for("update");
    const [locked] = await tx
      .select({ status: intents.status, amount: intents.paymentAmount, providerPaymentId: intents.providerPaymentId })
      .from(intents)
      .where(eq(intents.id, intentId))
      .for("update");
    if (!locked) throw new DomainError("intent_not_found", { intentId }, "intentId");
    const current: IntentStatus = locked.status;
    const asker: RefundAsker = by.kind === "partner" ? { kind: "partner", isPartner: await lockPartner(tx, by.userId) } : { kind: by.kind };
    const decision = decideRefund({ status: current, deliveryStatus: delivery?.status ?? null }, asker);
    if (!decision.allowed) {
      if (decision.refusal === "partner_required") throw new DomainError("partner_required", { what: "refund" });
      if (decision.refusal === "intent_already_delivered") throw new DomainError("intent_already_delivered", { intentId });
      throw new DomainError("intent_state_conflict", { intentId, current, target: "refunded" });
    }
    if (decision.noteRequired && (!note || note.length < REFUND_NOTE_MIN || note.length > REFUND_NOTE_MAX)) {
      throw new DomainError(
        "invalid_field",
        { message: `say why the money goes back (${REFUND_NOTE_MIN} to ${REFUND_NOTE_MAX} characters)` },
        "note",
      );
    }
    if (!locked.providerPaymentId) throw new DomainError("intent_state_conflict", { intentId, current, target: "refunded" });
    const actor = by.kind === "staff" ? by.actor.label : by.label;
    const { providerRefundId } = await provider.refund({ intentId, providerPaymentId: locked.providerPaymentId, amount: locked.amount });
    if (current === "paid") await stopOpenDelivery(tx, intentId, actor);
    const view = await markIntentRefunded(tx, intentId, { reason: decision.reason, note, providerRefundId, origin: refund.origin, actor });
    if (by.kind === "staff") {
      await recordAudit(tx, by.actor, {
        action: "order.refund",
        targetType: "intent",
        targetId: intentId,
        before: { status: current, paymentAmount: locked.amount },
        after: { status: view.status, refundReason: view.refundReason, providerRefundId },
        note: note ?? null,
      });
    }
    return view;
  });
}

/**
 * A partner's refund (POST /intents/{id}/refund): only the owner of the token that created the
 * intent may, exactly as only they may read it; anyone else's id is the same 404 as an unknown one.
 * Whether the owner is a partner is judged at the refund, so a token made before the scope became
 * partners' only, or an account that stopped being one, refunds nothing.
 */
export async function refundIntentForOwner(
  db: DbExecutor,
  token: AuthToken,
  intentId: string,
  note: string | undefined,
  origin: string,
): Promise<PublicIntent> {
  await getIntentForOwner(db, token, intentId, origin);
  await refundIntent(db, intentId, { by: { kind: "partner", userId: token.userId, label: `token ${token.name}` }, note, origin });
  return getIntentForOwner(db, token, intentId, origin);
}
