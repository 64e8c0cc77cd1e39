// The intent state machine for the application. drizzle/0003 enforces the same table in the
// database (trigger intents_guard_transition); the code checks first so it can answer clearly.

export const INTENT_STATUSES = ["requires_payment", "paid", "fulfilled", "canceled", "expired"] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

/** Every move there is. A status not listed as a source is final. */
export const INTENT_TRANSITIONS: Readonly<Record<IntentStatus, readonly IntentStatus[]>> = {
  requires_payment: ["paid", "canceled", "expired"],
  paid: ["fulfilled"],
  fulfilled: [],
  canceled: [],
  expired: [],
};

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
