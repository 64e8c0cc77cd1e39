import { describe, expect, it } from "vitest";
import { messages } from "@/lib/i18n/messages";
import { DELIVERY_FAILURES } from "@/lib/intents/states";
import type { TimelineEntry } from "@/lib/schemas/intents";
import { deliveredBy, describeTimeline, failureText, isInProgress, orderHeadline, type OrderProgress } from "./progress";

const en = messages.en.orders;
const ru = messages.ru.orders;

let minute = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 12, minute++)).toISOString();
const status = (value: string, reason: string | null = null): TimelineEntry => ({ at: at(), kind: "status", value, reason });
const delivery = (value: string, reason: string | null = null): TimelineEntry => ({ at: at(), kind: "delivery", value, reason });

describe("describeTimeline", () => {
  it("reads a gift's way from placing the order to its acceptance, once", () => {
    const timeline = [
      status("requires_payment", "created"),
      status("paid"),
      delivery("queued"),
      delivery("friend_request_sent"),
      delivery("gift_sent"),
      delivery("accepted"),
      status("fulfilled", "delivered"),
    ];
    const steps = describeTimeline(timeline, "gift", en);
    expect(steps.map((s) => s.title)).toEqual([
      "Order placed",
      "Paid",
      "In the delivery queue",
      "Friend request sent",
      "Gift sent",
      "Gift accepted — delivered",
    ]);
    expect(steps.map((s) => s.at)).toEqual(timeline.slice(0, 6).map((e) => e.at));
    expect(steps.at(-1)?.tone).toBe("done");
  });

  it("says a person works a manual delivery, and gear's acceptance is a trade", () => {
    const steps = describeTimeline(
      [delivery("queued", "manual"), delivery("taken"), delivery("trade_offer_sent"), delivery("accepted")],
      "gear",
      ru,
    );
    expect(steps.map((s) => s.title)).toEqual([
      "В очереди: заказ отправит сотрудник GiftKey",
      "Сотрудник GiftKey взял заказ в работу",
      "Предложение обмена отправлено",
      "Обмен принят — доставлено",
    ]);
  });

  it("keeps the intent's own 'delivered' when no delivery entry says so (orders from before deliveries were recorded)", () => {
    expect(describeTimeline([status("paid"), status("fulfilled")], "gift", en).map((s) => s.title)).toEqual(["Paid", "Delivered"]);
  });

  it("names a retry's and a failure's reason in words, and says the money is on its way back and why", () => {
    const steps = describeTimeline(
      [
        delivery("retrying", "friend_request_timeout"),
        delivery("failed", "friend_request_timeout"),
        status("refunded", "delivery_failed: friend_request_timeout"),
      ],
      "gift",
      en,
    );
    expect(steps).toEqual([
      expect.objectContaining({
        title: "Did not go through, trying again",
        detail: "The friend request was not accepted in time.",
        tone: "problem",
      }),
      expect.objectContaining({ title: "Delivery failed", detail: "The friend request was not accepted in time.", tone: "problem" }),
      expect.objectContaining({
        title: "Refunded — the money is on its way back to you",
        detail: "Because the delivery failed.",
        tone: "money",
      }),
    ]);
  });

  it("never shows an operator's internal note, only who refunded", () => {
    const [step] = describeTimeline([status("refunded", "operator: customer was rude")], "gift", en);
    expect(step?.detail).toBe("Refunded by GiftKey support.");
  });

  it("has words for every named failure in both languages, and a plain fallback for an unknown one", () => {
    for (const t of [en, ru]) {
      for (const reason of DELIVERY_FAILURES) expect(failureText(reason, t), reason).not.toBe(t.failures.other);
      expect(failureText("martians", t)).toBe(t.failures.other);
      expect(failureText(null, t)).toBe(t.failures.other);
    }
  });

  it("reads an unpaid order's end", () => {
    expect(
      describeTimeline([status("requires_payment", "created"), status("expired", "not paid in time")], "gear", en).map((s) => s.title),
    ).toEqual(["Order placed", "Not paid in time"]);
  });
});

describe("where the order stands", () => {
  const progress = (over: Partial<OrderProgress>): OrderProgress => ({
    status: "paid",
    deliveryStatus: "pending",
    deliveryStep: "queued",
    timeline: [],
    ...over,
  });

  it("is in progress only while paid with the delivery open", () => {
    expect(isInProgress(progress({}))).toBe(true);
    expect(isInProgress(progress({ deliveryStatus: "retrying" }))).toBe(true);
    expect(isInProgress(progress({ deliveryStatus: "failed" }))).toBe(false);
    expect(isInProgress(progress({ status: "fulfilled", deliveryStatus: "delivered" }))).toBe(false);
    expect(isInProgress(progress({ status: "refunded", deliveryStatus: "failed" }))).toBe(false);
    expect(isInProgress(progress({ status: "requires_payment", deliveryStatus: null }))).toBe(false);
  });

  it("says what comes next, by step and by who delivers", () => {
    expect(orderHeadline(progress({}), deliveredBy("manual"), en).text).toMatch(/by hand, usually within a few hours/);
    expect(orderHeadline(progress({}), deliveredBy("sandbox"), en).text).toMatch(/within a few minutes/);
    expect(orderHeadline(progress({ deliveryStep: "friend_request_sent" }), "bot", en).title).toBe("Waiting for your friend");
    expect(orderHeadline(progress({ deliveryStep: "trade_offer_sent" }), "bot", en).title).toBe("Trade offer sent");
    expect(orderHeadline(progress({ deliveryStatus: "retrying" }), "bot", en).title).toBe("Trying again");
    expect(orderHeadline(progress({ status: "refunded", deliveryStatus: "failed" }), "bot", en)).toEqual({
      title: "Refunded",
      text: "The money is on its way back to you: banks usually credit it within a few days.",
      tone: "money",
    });
    expect(orderHeadline(progress({ status: "fulfilled", deliveryStatus: "delivered" }), "bot", ru).title).toBe("Доставлено");
  });
});
