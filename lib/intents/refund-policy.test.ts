import { describe, expect, it } from "vitest";
import { decideRefund, type RefundAsker, type RefundSubject } from "./refund-policy";
import { DELIVERY_STATUSES, INTENT_STATUSES } from "./states";

// Every intent state with every delivery status it can have, against every asker. The rows are the
// rule in words: a partner until delivery, staff before and after (with a written reason), the
// delivery worker only for an order not delivered, a shopper's token never.

const ASKERS: [string, RefundAsker][] = [
  ["partner", { kind: "partner", isPartner: true }],
  ["shopper's token", { kind: "partner", isPartner: false }],
  ["staff", { kind: "staff" }],
  ["delivery worker", { kind: "delivery_failed" }],
];

function expected(subject: RefundSubject, asker: string): string {
  if (asker === "shopper's token") return "partner_required";
  if (subject.status !== "paid" && subject.status !== "fulfilled") return "intent_state_conflict";
  const delivered = subject.status === "fulfilled" || subject.deliveryStatus === "delivered";
  if (delivered && asker !== "staff") return "intent_already_delivered";
  return asker === "staff" ? "operator, with a reason" : asker === "partner" ? "partner" : "delivery_failed";
}

const subjects = INTENT_STATUSES.flatMap<RefundSubject>((status) =>
  status === "requires_payment" || status === "canceled" || status === "expired"
    ? [{ status, deliveryStatus: null }]
    : DELIVERY_STATUSES.map((deliveryStatus) => ({ status, deliveryStatus })),
);

describe("decideRefund", () => {
  for (const subject of subjects)
    for (const [name, asker] of ASKERS)
      it(`${subject.status}, delivery ${subject.deliveryStatus ?? "none"}: ${name} -> ${expected(subject, name)}`, () => {
        const decision = decideRefund(subject, asker);
        const got = decision.allowed ? (decision.noteRequired ? `${decision.reason}, with a reason` : decision.reason) : decision.refusal;
        expect(got).toBe(expected(subject, name));
      });

  it("spells the rows of the README's rule", () => {
    const paid = { status: "paid", deliveryStatus: "pending" } as const;
    const delivered = { status: "fulfilled", deliveryStatus: "delivered" } as const;
    expect(decideRefund(paid, { kind: "partner", isPartner: true })).toEqual({ allowed: true, reason: "partner", noteRequired: false });
    expect(decideRefund(delivered, { kind: "partner", isPartner: true })).toEqual({ allowed: false, refusal: "intent_already_delivered" });
    expect(decideRefund(delivered, { kind: "staff" })).toEqual({ allowed: true, reason: "operator", noteRequired: true });
    expect(decideRefund(paid, { kind: "partner", isPartner: false })).toEqual({ allowed: false, refusal: "partner_required" });
  });
});
