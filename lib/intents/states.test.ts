import { describe, expect, it } from "vitest";
import {
  INTENT_STATUSES,
  IntentTransitionError,
  assertTransition,
  canTransition,
  INTENT_TRANSITIONS,
  effectiveStatus,
  paymentStatusOf,
  type IntentStatus,
} from "./states";

// Written out in full on purpose: a change to the table must change this list too.
const ALLOWED = new Set([
  "requires_payment->paid",
  "requires_payment->canceled",
  "requires_payment->expired",
  "paid->fulfilled",
  "paid->refunded",
  "fulfilled->refunded",
]);
const pairs = INTENT_STATUSES.flatMap((from) => INTENT_STATUSES.map((to) => [from, to] as [IntentStatus, IntentStatus]));

describe("intent transitions", () => {
  it.each(pairs)("%s -> %s is allowed only if listed", (from, to) => {
    const allowed = ALLOWED.has(`${from}->${to}`);
    expect(canTransition(from, to)).toBe(allowed);
    if (allowed) {
      expect(() => assertTransition(from, to)).not.toThrow();
    } else {
      expect(() => assertTransition(from, to)).toThrow(new IntentTransitionError(from, to));
      expect(() => assertTransition(from, to)).toThrow(`an intent cannot move from ${from} to ${to}`);
    }
  });

  it("has no move from a status to itself", () => {
    for (const status of INTENT_STATUSES) expect(canTransition(status, status)).toBe(false);
  });

  it("leaves canceled, expired and refunded final; paid and fulfilled can still be refunded", () => {
    expect(INTENT_STATUSES.filter((s) => INTENT_TRANSITIONS[s].length === 0)).toEqual(["canceled", "expired", "refunded"]);
  });

  it("reports the payment side as the original service does", () => {
    expect(Object.fromEntries(INTENT_STATUSES.map((s) => [s, paymentStatusOf(s)]))).toEqual({
      requires_payment: "pending",
      paid: "paid",
      fulfilled: "paid",
      canceled: "rejected",
      expired: "rejected",
      refunded: "refunded",
    });
  });
});

describe("effectiveStatus", () => {
  const expiresAt = new Date("2026-01-01T12:15:00Z");
  it.each([
    ["requires_payment", "2026-01-01T12:14:59.999Z", "requires_payment"],
    ["requires_payment", "2026-01-01T12:15:00.000Z", "expired"],
    ["requires_payment", "2026-01-02T00:00:00Z", "expired"],
    ["paid", "2026-01-02T00:00:00Z", "paid"],
    ["canceled", "2026-01-02T00:00:00Z", "canceled"],
    ["fulfilled", "2026-01-02T00:00:00Z", "fulfilled"],
  ] as const)("%s at %s reads as %s", (status, now, expected) => {
    expect(effectiveStatus(status, expiresAt, new Date(now))).toBe(expected);
  });
});
