import "server-only";
import type { Database } from "@/lib/db/client";
import { configuredOrigin } from "@/lib/http/public-origin";
import { asError, log } from "@/lib/log";
import { attemptDelivery, claimDueDeliveries } from "@/lib/services/delivery";
import type { BackgroundJob } from "./runner";

export interface DeliveryJobOptions {
  pollMs: number;
  /** How long a claimed delivery is this worker's; past it (a crash, a stall) another worker takes it. */
  leaseMs?: number;
  /** Deliveries advanced at once in this process. */
  concurrency?: number;
}

/**
 * Advances due automatic deliveries (the sandbox bot, or a real one): claims up to `concurrency`
 * with a lease and works them one pass at a time. Manual deliveries are never claimed.
 */
export function deliveryJob(db: Database, { pollMs, leaseMs = 60_000, concurrency = 10 }: DeliveryJobOptions): BackgroundJob {
  return {
    name: "deliveries",
    intervalMs: pollMs,
    async run() {
      const claimed = await claimDueDeliveries(db, concurrency, leaseMs);
      const origin = configuredOrigin();
      await Promise.all(
        claimed.map((delivery) =>
          attemptDelivery(db, delivery, origin).catch((err: unknown) =>
            // The lease runs out and the delivery is due again: an error here loses nothing.
            log.error({ area: "delivery", deliveryId: delivery.id, err: asError(err) }, "delivery attempt not recorded"),
          ),
        ),
      );
      return claimed.length === concurrency;
    },
  };
}
