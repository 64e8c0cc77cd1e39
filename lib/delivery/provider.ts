import "server-only";
import type { DeliveryFailure, DeliveryStep } from "@/lib/intents/states";

/** What a provider is given to deliver: the paid intent's recipient, and where the delivery stands. */
export interface DeliveryJob {
  deliveryId: string;
  intentId: string;
  kind: "gift" | "gear";
  /** Attempts made before this one. */
  attempt: number;
  /** The step reached so far (`queued` before the first attempt). */
  step: DeliveryStep;
  gift: { appId: number; packageId: number; region: string; inviteUrl: string } | null;
  gear: { platform: number; item: string; account: string; tradeLink: string | null } | null;
}

/**
 * What one call of `advance` reached. `progress`: a step is done and the provider wants to be asked
 * again after `checkAgainInMs` (a friend request waits for the friend). `delivered`: the recipient
 * has it. `failed`: a named reason, and whether trying again later may help (`retryable`); a delivery
 * whose retries are spent, or that failed for good, is refunded.
 */
export type DeliveryProgress =
  | { outcome: "progress"; step: DeliveryStep; checkAgainInMs: number }
  | { outcome: "delivered" }
  | { outcome: "failed"; reason: DeliveryFailure; retryable: boolean };

/**
 * Who gets a paid order to its recipient, behind one seam like the payment provider. The store keeps
 * every state (lib/services/delivery.ts): the worker claims a due delivery, calls `advance`, and
 * records what it answered in one transaction, so a provider only translates.
 *
 * A real store bot plugs in as one more adapter: `advance` looks at `job.step` and does the next
 * thing (send the friend request, then the gift; or the trade offer), keyed by `job.deliveryId` so a
 * repeated call after a crash finds the request it already sent instead of sending a second one, and
 * answers `progress` with a time to look again, `delivered`, or `failed` with a named reason.
 * `automatic: false` providers (manual) are never called by the worker: people move their
 * deliveries through the fulfilment queue's services.
 */
export interface DeliveryProvider {
  /** Stored on the delivery. */
  readonly id: "manual" | "sandbox";
  /** The worker calls `advance`; false when people do the work. */
  readonly automatic: boolean;
  /** Nothing real is sent: a simulation, shown as such. */
  readonly sandbox: boolean;
  advance(job: DeliveryJob): Promise<DeliveryProgress>;
}
