import "server-only";
import { asError, log } from "@/lib/log";
import type { Database } from "@/lib/db/client";
import { attemptDelivery, claimDueDeliveries, type DeliveryConfig } from "@/lib/services/webhook-delivery";
import type { BackgroundJob } from "./runner";
import { outboxJob } from "./outbox-job";

export interface WebhookJobOptions {
  pollMs: number;
  /** Attempts in flight at once in this process; one slow receiver holds one slot, not the queue. */
  concurrency?: number;
}

/** Sends due callbacks, up to `concurrency` at once (lib/worker/outbox-job.ts). */
export function webhookDeliveryJob(db: Database, config: DeliveryConfig, { pollMs, concurrency = 10 }: WebhookJobOptions): BackgroundJob {
  return outboxJob({
    name: "webhook-deliveries",
    pollMs,
    concurrency,
    claim: (limit) => claimDueDeliveries(db, limit, config.leaseMs),
    attempt: (delivery) => attemptDelivery(db, delivery, config),
    onError: (delivery, err) =>
      log.error({ area: "callbacks", deliveryId: delivery.id, err: asError(err) }, "callback attempt not recorded"),
  });
}
