import { isAuditAction } from "@/lib/admin/audit-catalog";
import { format } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";
import type { AdminTimelineItem } from "@/lib/services/admin-orders";

// The order page's words for what the database keeps as codes: delivery steps and outcomes, why a
// delivery failed, why the state changed, which back-office action was taken. A code the texts do
// not know yet is shown as it is rather than hidden.

/** A delivery's step (`gift_sent`), or the `retrying` / `failed` a delivery event also records. */
export function deliveryStepText(step: string, t: Messages): string {
  const steps: Record<string, string> = t.adminPartners.actions.steps;
  const statuses: Record<string, string> = t.adminOrders.deliveryStatuses;
  return steps[step] ?? statuses[step] ?? step;
}

/** Why a delivery failed (`friend_request_declined`), in the shopper's own words for it. */
export function deliveryFailureText(reason: string, t: Messages): string {
  const failures: Record<string, string> = t.orders.failures;
  return failures[reason] ?? reason;
}

/**
 * Why the state changed, as the lifecycle records it: `created`, `not paid in time`, `delivered`,
 * or a refund's reason with the person's note after a colon (`operator: the buyer called`).
 */
export function statusReasonText(reason: string, t: Messages): string {
  const r = t.adminOrders.timeline.reasons;
  const known: Record<string, string> = { created: r.created, "not paid in time": r.notPaidInTime, delivered: r.delivered };
  if (known[reason]) return known[reason];
  const refundReasons: Record<string, string> = t.adminOrders.order.refundReasons;
  const [code = "", ...note] = reason.split(": ");
  if (refundReasons[code]) return [refundReasons[code], ...note].join(": ");
  return reason;
}

/** Why a delivery event happened: `manual` (a person will send it), or a failure's reason. */
function deliveryReasonText(reason: string, t: Messages): string {
  return reason === "manual" ? t.adminOrders.timeline.reasons.manual : deliveryFailureText(reason, t);
}

export function auditActionText(action: string, t: Messages): string {
  return isAuditAction(action) ? t.admin.audit.actions[action].toLowerCase() : action;
}

/** One timeline entry: its line, and the smaller line of who and why under it. */
export function timelineText(item: AdminTimelineItem, t: Messages, rub: (kopecks: number) => string): { text: string; extra: string[] } {
  const m = t.adminOrders;
  const tl = m.timeline;
  const extra: string[] = [];
  const by = (actor: string | null) => (actor ? [format(tl.by, { actor })] : []);
  switch (item.type) {
    case "status": {
      const states: Record<string, string> = m.states;
      if (item.reason) extra.push(format(tl.why, { reason: statusReasonText(item.reason, t) }));
      extra.push(...by(item.actor));
      return { text: format(tl.status, { value: states[item.value] ?? item.value }), extra };
    }
    case "delivery":
      if (item.reason) extra.push(format(tl.why, { reason: deliveryReasonText(item.reason, t) }));
      extra.push(...by(item.actor));
      return { text: format(tl.delivery, { value: deliveryStepText(item.value, t) }), extra };
    case "payment":
      return {
        text: format(tl.payment, { amount: rub(item.amount), provider: providerText(item.provider, t), id: item.providerPaymentId ?? "—" }),
        extra,
      };
    case "refund": {
      const reasons: Record<string, string> = m.order.refundReasons;
      if (item.note) extra.push(item.note);
      return {
        text: format(tl.refund, { reason: (item.reason && reasons[item.reason]) ?? item.reason ?? "—", id: item.providerRefundId ?? "—" }),
        extra,
      };
    }
    case "delivery_attempt": {
      const outcomes: Record<string, string> = tl.outcomes;
      if (item.step) extra.push(format(tl.step, { step: deliveryStepText(item.step, t) }));
      if (item.failureReason) extra.push(format(tl.why, { reason: deliveryFailureText(item.failureReason, t) }));
      extra.push(...by(item.actor));
      return { text: format(tl.deliveryAttempt, { attempt: item.attempt, outcome: outcomes[item.outcome] ?? item.outcome }), extra };
    }
    case "callback": {
      const statuses: Record<string, string> = m.callbackStatuses;
      if (item.resendOf) extra.push(tl.callbackResent);
      return {
        text: format(tl.callback, {
          event: item.eventType,
          url: item.url,
          status: statuses[item.status] ?? item.status,
          attempts: item.attemptCount,
        }),
        extra,
      };
    }
    case "callback_attempt":
      if (item.error) extra.push(format(tl.error, { error: item.error }));
      return {
        text: format(tl.callbackAttempt, { attempt: item.attempt, result: item.responseStatus ?? tl.noAnswer, ms: item.durationMs }),
        extra,
      };
    case "mail": {
      const statuses: Record<string, string> = m.mailStatuses;
      if (item.lastError) extra.push(format(tl.error, { error: item.lastError }));
      return {
        text: format(tl.mail, {
          kind: m.mailKinds[item.kind],
          to: item.recipient,
          status: statuses[item.status] ?? item.status,
          attempts: item.attemptCount,
        }),
        extra,
      };
    }
    case "audit":
      if (item.note) extra.push(item.action === "delivery.report" ? reportNoteText(item.note, t) : item.note);
      return { text: format(tl.audit, { actor: item.actor, action: auditActionText(item.action, t) }), extra };
  }
}

/** A delivery report's note is what was reported: a step sent, `delivered`, or a failure's reason. */
export function reportNoteText(note: string, t: Messages): string {
  const steps: Record<string, string> = t.adminPartners.actions.steps;
  if (steps[note]) return steps[note];
  if (note === "delivered") return t.adminOrders.deliveryStatuses.delivered;
  return deliveryFailureText(note, t);
}

/** A payment or delivery provider by its id (`manual`, `sandbox`). */
export function providerText(provider: string | null, t: Messages): string {
  const providers: Record<string, string> = t.adminOrders.order.providers;
  return provider ? (providers[provider] ?? provider) : "—";
}
