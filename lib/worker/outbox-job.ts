import "server-only";
import type { BackgroundJob } from "./runner";

export interface OutboxJobOptions<T> {
  name: string;
  pollMs: number;
  /** Attempts in flight at once in this process; one slow receiver holds one slot, not the queue. */
  concurrency: number;
  /** Leases up to `limit` due rows to this process. */
  claim(limit: number): Promise<T[]>;
  /** Sends one claimed row and records the outcome. */
  attempt(row: T): Promise<unknown>;
  /** An attempt that threw: its lease runs out and the row is due again, so this only reports it. */
  onError(row: T, err: unknown): void;
}

/**
 * Works an outbox (callbacks, mail). Each pass claims as many rows as there are free slots and
 * starts them without waiting, so a receiver that takes its full timeout delays nobody else; a
 * finished attempt wakes the next pass when the last one filled every slot.
 */
export function outboxJob<T>(options: OutboxJobOptions<T>): BackgroundJob {
  const inFlight = new Set<Promise<void>>();
  let saturated = false;
  return {
    name: options.name,
    intervalMs: options.pollMs,
    async run(wake) {
      const claimed = await options.claim(options.concurrency - inFlight.size);
      for (const row of claimed) {
        const attempt = options
          .attempt(row)
          .then(() => undefined)
          .catch((err: unknown) => options.onError(row, err))
          .finally(() => {
            inFlight.delete(attempt);
            if (saturated) {
              saturated = false;
              wake();
            }
          });
        inFlight.add(attempt);
      }
      saturated = inFlight.size >= options.concurrency;
      return false;
    },
    async drain() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
