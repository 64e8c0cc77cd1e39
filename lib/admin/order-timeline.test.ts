import { describe, expect, it } from "vitest";
import { messages } from "@/lib/i18n/messages";
import { DELIVERY_FAILURES, DELIVERY_STEPS, REFUND_REASONS } from "@/lib/intents/states";
import type { AdminTimelineItem } from "@/lib/services/admin-orders";
import { timelineText } from "./order-timeline";

// The order page's timeline in both languages: every delivery step, outcome and failure reason the
// database can hold, and every reason a state changes for, is worded from the messages; in Russian
// no code reaches the page.

const at = new Date("2026-03-01T09:00:00Z");
const rub = (kopecks: number) => `${kopecks / 100} ₽`;
const OUTCOMES = ["progress", "delivered", "retry", "failed"] as const;
/** What intent_events.value holds for a delivery: its steps, and the retrying / failed it records. */
const DELIVERY_EVENTS = [...DELIVERY_STEPS, "retrying", "failed"] as const;

describe.each(["ru", "en"] as const)("the order timeline in %s", (locale) => {
  const t = messages[locale];
  const tl = t.adminOrders.timeline;
  const line = (item: AdminTimelineItem) => {
    const { text, extra } = timelineText(item, t, rub);
    return [text, ...extra].join(" · ");
  };
  /** In Russian, the code itself must not show. */
  const noCode = (text: string, code: string) => {
    if (locale === "ru") expect(text).not.toMatch(new RegExp(`\\b${code}\\b`));
  };
  const stepText = (step: string) =>
    (t.adminPartners.actions.steps as Record<string, string>)[step] ?? (t.adminOrders.deliveryStatuses as Record<string, string>)[step];

  it.each(DELIVERY_EVENTS)("words the delivery event %s", (value) => {
    expect(stepText(value)).toBeTypeOf("string");
    const text = line({ at, type: "delivery", value, reason: null, actor: null });
    expect(text).toBe(tl.delivery.replace("{value}", stepText(value)!));
    noCode(text, value);
  });

  it.each(DELIVERY_FAILURES)("words the failure %s, on a delivery event and on an attempt", (reason) => {
    const why = tl.why.replace("{reason}", t.orders.failures[reason]);
    const event = line({ at, type: "delivery", value: "failed", reason, actor: null });
    const attempt = line({ at, type: "delivery_attempt", attempt: 1, outcome: "failed", step: null, failureReason: reason, actor: null });
    for (const text of [event, attempt]) {
      expect(text).toContain(why);
      noCode(text, reason);
    }
  });

  it.each(OUTCOMES)("words the attempt outcome %s", (outcome) => {
    const text = line({ at, type: "delivery_attempt", attempt: 2, outcome, step: "gift_sent", failureReason: null, actor: null });
    expect(text).toBe(
      `${tl.deliveryAttempt.replace("{attempt}", "2").replace("{outcome}", tl.outcomes[outcome])} · ${tl.step.replace("{step}", stepText("gift_sent")!)}`,
    );
    noCode(text, outcome);
    noCode(text, "gift_sent");
  });

  it.each<[string, string]>([
    ["created", tl.reasons.created],
    ["not paid in time", tl.reasons.notPaidInTime],
    ["delivered", tl.reasons.delivered],
    ...REFUND_REASONS.map((r): [string, string] => [r, t.adminOrders.order.refundReasons[r]]),
    ["operator: the buyer called", `${t.adminOrders.order.refundReasons.operator}: the buyer called`],
  ])("words the state change's reason %j", (reason, worded) => {
    const text = line({ at, type: "status", value: "refunded", reason, actor: null });
    expect(text).toBe(`${tl.status.replace("{value}", t.adminOrders.states.refunded)} · ${tl.why.replace("{reason}", worded)}`);
    noCode(text, reason.split(": ")[0]!.replace(/ /g, "\\s"));
  });

  it("words a manual delivery's queueing and each back-office action on the order", () => {
    expect(line({ at, type: "delivery", value: "queued", reason: "manual", actor: null })).toContain(tl.reasons.manual);
    for (const action of [
      "order.refund",
      "mail.resend",
      "callback.resend",
      "delivery.take",
      "delivery.release",
      "delivery.report",
      "delivery.retry",
    ] as const) {
      const text = line({ at, type: "audit", action, actor: "op@example.com", note: null });
      expect(text).toBe(tl.audit.replace("{actor}", "op@example.com").replace("{action}", t.admin.audit.actions[action].toLowerCase()));
    }
    const report = line({ at, type: "audit", action: "delivery.report", actor: "op@example.com", note: "trade_offer_sent" });
    expect(report).toContain(t.adminPartners.actions.steps.trade_offer_sent);
    noCode(report, "trade_offer_sent");
  });
});
