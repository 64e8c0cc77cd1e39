import { type Database, type DbExecutor, isTransaction } from "./client";
import { env } from "@/lib/env";

/**
 * Group commit for one kind of write: while `maxInFlight` statements of the kind are at the
 * database, the requests that arrive wait, and the next free slot sends all of them (up to
 * `maxBatch`) as one statement, so one round trip and one commit carry many requests. Nothing waits
 * on a timer: at low load every request goes alone and at once, and batches grow only with the
 * queue. Each caller's promise settles when its own batch has committed (or failed).
 *
 * A batch is one statement, so one bad item (a trigger's refusal, a constraint) fails all of it;
 * its items are then sent again one by one, concurrently, and each caller hears its own answer.
 * `run` must therefore be safe to repeat for items whose batch failed: it is, for inserts whose
 * keys are chosen before the first try (a repeat of a committed row is refused, never doubled).
 */
export class Coalescer<I, O> {
  private readonly queue: { item: I; resolve: (out: O) => void; reject: (err: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    /** Writes the items, in one statement, and answers their results in the items' order. */
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly limits: { maxInFlight: number; maxBatch: number },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.limits.maxBatch);
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.dispatch();
      });
    }
  }

  private async send(batch: typeof this.queue): Promise<void> {
    try {
      const results = await this.run(batch.map((b) => b.item));
      if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${results.length} results`);
      batch.forEach((b, i) => b.resolve(results[i]!));
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      await Promise.all(
        batch.map(async (b) => {
          try {
            const [out] = await this.run([b.item]);
            b.resolve(out!);
          } catch (alone) {
            b.reject(alone);
          }
        }),
      );
    }
  }
}

/**
 * `run` for one item, coalesced: on a pool, through that pool's coalescer (made on its first use
 * and living as long as the pool; tests make pools of their own), with the app's limits:
 * DB_BATCHES_IN_FLIGHT batches at the database at once, at most 64 items each (64 intents are about
 * 1,300 parameters, far under PostgreSQL's 65,535). Inside a transaction the item goes alone, in
 * that transaction, at once.
 */
export function coalesced<I, O>(run: (db: DbExecutor, items: I[]) => Promise<O[]>): (db: DbExecutor, item: I) => Promise<O> {
  const made = new WeakMap<Database, Coalescer<I, O>>();
  return async (db, item) => {
    if (isTransaction(db)) return (await run(db, [item]))[0]!;
    let coalescer = made.get(db);
    if (!coalescer) made.set(db, (coalescer = new Coalescer((items) => run(db, items), LIMITS)));
    return coalescer.submit(item);
  };
}

const LIMITS = { maxInFlight: env.DB_BATCHES_IN_FLIGHT, maxBatch: 64 };

/**
 * A batch's keys as one jsonb parameter, each with its place `i`, for a lookup that reads them with
 * `jsonb_to_recordset(…) AS k(i int, …)` and selects `k.i` with every row.
 */
export const batchKeys = (keys: object[]): string => JSON.stringify(keys.map((key, i) => ({ i, ...key })));

/** A batched lookup's rows in its keys' order (by the `i` each row carries); undefined where a key found none. */
export function inKeyOrder<R extends { i: number }>(count: number, rows: R[]): (R | undefined)[] {
  const byPlace = new Map(rows.map((row) => [row.i, row]));
  return Array.from({ length: count }, (_, i) => byPlace.get(i));
}
