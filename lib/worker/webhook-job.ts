import "server-only";
import { asError, log } from "@/lib/log";
import type { Database } from "@/lib/db/client";
import { attemptDelivery, claimDueDeliveries, type DeliveryConfig } from "@/lib/services/webhook-delivery";
import type { BackgroundJob } from "./runner";

export interface WebhookJobOptions {
  pollMs: number;
  /** Attempts in flight at once in this process; one slow receiver holds one slot, not the queue. */
  concurrency?: number;
}

/**
 * Sends due callbacks. Each pass claims as many rows as there are free slots and starts them
 * without waiting, so a receiver that takes its full timeout delays nobody else; a finished
 * attempt wakes the next pass when the last one filled every slot.
 */
export function webhookDeliveryJob(db: Database, config: DeliveryConfig, { pollMs, concurrency = 10 }: WebhookJobOptions): BackgroundJob {
  const inFlight = new Set<Promise<void>>();
  let saturated = false;
  return {
    name: "webhook-deliveries",
    intervalMs: pollMs,
    async run(wake) {
      const claimed = await claimDueDeliveries(db, concurrency - inFlight.size, config.leaseMs);
      for (const delivery of claimed) {
        const attempt = attemptDelivery(db, delivery, config)
          .then(() => undefined)
          // The lease runs out and the delivery is due again: an error here loses nothing.
          .catch((err: unknown) =>
            log.error({ area: "callbacks", deliveryId: delivery.id, err: asError(err) }, "callback attempt not recorded"),
          )
          .finally(() => {
            inFlight.delete(attempt);
            if (saturated) {
              saturated = false;
              wake();
            }
          });
        inFlight.add(attempt);
      }
      saturated = inFlight.size >= concurrency;
      return false;
    },
    async drain() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
