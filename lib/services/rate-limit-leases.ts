import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import type { RateLimitPolicy, RateLimitResult } from "@/lib/services/rate-limits";

/**
 * Quota leases: the busy-path limiter (per token, per address, guests per address).
 *
 * The shared counter is the same `rate_limits` row the exact path (`hitRateLimit`) counts in, one
 * per key and fixed window on the database's clock. Instead of one upsert per request, a process
 * claims a block of units in one upsert (`count = count + want`) and admits requests from memory
 * until the block is spent. Claims are serialised by the row lock, so each claim's units are the
 * interval (count before, count after] of the row; a claim keeps only the part at or below the
 * limit. Those intervals never overlap, so:
 *
 * - Overshoot bound: 0. However many processes share the row, a window never admits more than its
 *   limit (requests admitted by `hitRateLimit` on the same key included: each is a unit of the same
 *   row). Units are never given back, so the row only grows within a window.
 * - Under-admission bound: a process holds at most H = min(maxBlock, floor(limit / divisor)) unspent
 *   units of one key (one lease per key; a block larger than its waiting requests is at most
 *   floor(free / divisor)). A request is refused only when its process holds no unit and the row
 *   is used up, so at least limit − (P − 1) × H requests of that window were admitted, P being the
 *   processes serving the key (units held by a process no request reaches lapse at the window's end).
 * - Headers: remaining = limit − the row's count at this process's latest statement on the key
 *   + the units it still holds. That is above the truth (limit − admitted everywhere) by at most
 *   the units other processes claimed after that statement, which is never older than `maxAgeMs`
 *   (plus one round trip) while the process serves the key: an older view is refreshed first.
 *   With one process it is exact; once a process sees the window used up it answers 0.
 *
 * A lease ends when its window ends by this process's clock, measured conservatively from the
 * database's own `expires_at − statement_timestamp()` (the reply's round trip makes it end early,
 * never late); its unspent units lapse.
 */
export interface LeaseOptions {
  /** The most units one claim takes, however far the window is from its limit. */
  maxBlock: number;
  /** A claim takes at most 1/divisor of what the row has left (so the last units go one at a time). */
  divisor: number;
  /** How old the view of the row may get before a request refreshes it (for honest headers). */
  maxAgeMs: number;
  /** Leases kept per process; past it, ended ones go, then the oldest (their units lapse). */
  maxKeys: number;
  now: () => number;
}

export const DEFAULT_LEASE_OPTIONS: LeaseOptions = {
  maxBlock: 100,
  divisor: 32,
  maxAgeMs: 1_000,
  maxKeys: 10_000,
  now: () => performance.now(),
};

/**
 * Units one claim asks for: enough for every request already waiting (up to maxBlock), and beyond
 * them at most 1/divisor of what the row has left, so a process holds little of a nearly used-up
 * window and the others are not refused while it sits on units.
 */
export function leaseBlock(
  { limit, seen, waiting }: { limit: number; seen: number; waiting: number },
  { maxBlock, divisor }: Pick<LeaseOptions, "maxBlock" | "divisor">,
): number {
  const free = Math.max(0, limit - seen);
  const want = Math.min(maxBlock, Math.max(1, waiting, Math.floor(free / divisor)));
  // Asking past what seems free would only inflate the row (the claim keeps what fits anyway).
  return Math.min(want, Math.max(1, free));
}

/** What one claim statement answered: the row after it, and what of it this claim may spend. */
export function grantOf(limit: number, countAfter: number, want: number): number {
  const before = countAfter - want;
  return Math.max(0, Math.min(want, limit - before));
}

interface Waiter {
  resolve: (result: RateLimitResult) => void;
  reject: (err: unknown) => void;
}

interface Lease {
  /** The window, in epoch seconds on the database's clock. */
  windowStart: number;
  /** When the window ends by this process's clock (`now()`), at or before its true end. */
  endsAt: number;
  /** The row's count at this process's latest statement on it. */
  seen: number;
  syncedAt: number;
  /** Units claimed by this process and not yet spent. */
  unspent: number;
}

interface KeyState {
  lease: Lease | null;
  queue: Waiter[];
  syncing: boolean;
}

export class LeasedRateLimiter {
  private readonly keys = new Map<string, KeyState>();
  private readonly options: LeaseOptions;

  constructor(options: Partial<LeaseOptions> = {}) {
    this.options = { ...DEFAULT_LEASE_OPTIONS, ...options };
  }

  /** Counts one request against `key`; answers from memory while this process holds units. */
  hit(db: Database, key: string, policy: RateLimitPolicy): Promise<RateLimitResult> {
    const id = `${policy.windowSeconds}:${policy.limit}:${key}`;
    const state = this.stateOf(id);
    const now = this.options.now();
    const lease = live(state.lease, now);
    if (!lease) state.lease = null;
    // Later arrivals queue behind earlier ones, so a claim sized for the waiting is theirs.
    if (lease && state.queue.length === 0) {
      if (lease.unspent > 0 && now - lease.syncedAt <= this.options.maxAgeMs) {
        lease.unspent--;
        return Promise.resolve(this.result(policy, lease, true, now));
      }
      // Units are never given back within a window, so a used-up window stays used up.
      if (lease.unspent === 0 && lease.seen >= policy.limit) return Promise.resolve(this.result(policy, lease, false, now));
    }
    return new Promise<RateLimitResult>((resolve, reject) => {
      state.queue.push({ resolve, reject });
      if (!state.syncing) void this.sync(db, key, policy, state);
    });
  }

  private stateOf(id: string): KeyState {
    let state = this.keys.get(id);
    if (!state) {
      if (this.keys.size >= this.options.maxKeys) this.evict();
      state = { lease: null, queue: [], syncing: false };
      this.keys.set(id, state);
    }
    return state;
  }

  /** Down to 9/10 of maxKeys at once, so a flood of new keys pays for a sweep once per many keys. */
  private evict(): void {
    const now = this.options.now();
    const target = Math.floor(this.options.maxKeys * 0.9);
    const idle = (state: KeyState) => !state.syncing && state.queue.length === 0;
    for (const [id, state] of this.keys) {
      if (this.keys.size <= target) return;
      if (idle(state) && !live(state.lease, now)) this.keys.delete(id);
    }
    // Still full of live leases: the oldest go (their units lapse: fewer admitted, never more).
    for (const [id, state] of this.keys) {
      if (this.keys.size <= target) return;
      if (idle(state)) this.keys.delete(id);
    }
  }

  /**
   * One claim for the queue: takes a block (or nothing, when the lease has units and is only
   * stale), then serves the queue in order from what the lease holds; claims again while some
   * are left waiting and the window is not used up.
   */
  private async sync(db: Database, key: string, policy: RateLimitPolicy, state: KeyState): Promise<void> {
    state.syncing = true;
    try {
      while (state.queue.length > 0) {
        const sentAt = this.options.now();
        const current = live(state.lease, sentAt);
        const want =
          current && current.unspent >= state.queue.length
            ? 0
            : leaseBlock({ limit: policy.limit, seen: current?.seen ?? 0, waiting: state.queue.length }, this.options);
        const row = await this.claim(db, key, policy, want);
        const receivedAt = this.options.now();
        const granted = grantOf(policy.limit, row.count, want);
        const endsAt = sentAt + row.resetMs;
        const lease = live(state.lease, receivedAt);
        if (lease && lease.windowStart === row.windowStart) {
          lease.unspent += granted;
          lease.seen = row.count;
          lease.syncedAt = sentAt;
          lease.endsAt = Math.min(lease.endsAt, endsAt);
        } else {
          state.lease = { windowStart: row.windowStart, endsAt, seen: row.count, syncedAt: sentAt, unspent: granted };
        }
        const served = state.lease!;
        while (state.queue.length > 0 && served.unspent > 0) {
          served.unspent--;
          state.queue.shift()!.resolve(this.result(policy, served, true, receivedAt));
        }
        // A window that ended meanwhile is not judged: the next claim finds the new one.
        if (served.seen >= policy.limit && served.unspent === 0 && receivedAt < served.endsAt) {
          for (const waiter of state.queue.splice(0)) waiter.resolve(this.result(policy, served, false, receivedAt));
        }
      }
    } catch (err) {
      for (const waiter of state.queue.splice(0)) waiter.reject(err);
    } finally {
      state.syncing = false;
    }
  }

  /** The exact path's statement with `want` units instead of one; the window as the database sees it. */
  protected async claim(
    db: Database,
    key: string,
    policy: RateLimitPolicy,
    want: number,
  ): Promise<{ count: number; resetMs: number; windowStart: number }> {
    const w = policy.windowSeconds;
    const result = await db.execute<{ count: number; reset_ms: number; window_start: number }>(sql`
      INSERT INTO rate_limits (key, window_start, expires_at, count)
      SELECT ${key}, start, start + make_interval(secs => ${w}), ${want}
      FROM (SELECT to_timestamp(floor(extract(epoch FROM statement_timestamp()) / ${w}) * ${w}) AS start) AS current_window
      ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + ${want}
      RETURNING count, (extract(epoch FROM expires_at - statement_timestamp()) * 1000)::float8 AS reset_ms,
                extract(epoch FROM window_start)::float8 AS window_start`);
    const row = result.rows[0]!;
    return { count: Number(row.count), resetMs: Number(row.reset_ms), windowStart: Number(row.window_start) };
  }

  private result(policy: RateLimitPolicy, lease: Lease, allowed: boolean, now: number): RateLimitResult {
    return {
      policy: policy.name,
      limit: policy.limit,
      windowSeconds: policy.windowSeconds,
      remaining: allowed ? Math.max(0, policy.limit - lease.seen) + lease.unspent : 0,
      resetSeconds: Math.max(0, Math.ceil((lease.endsAt - now) / 1000)),
      allowed,
    };
  }
}

function live(lease: Lease | null, now: number): Lease | null {
  return lease && now < lease.endsAt ? lease : null;
}
