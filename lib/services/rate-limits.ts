import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { env } from "@/lib/env";
import { metrics } from "@/lib/metrics";
import { DomainError } from "@/lib/errors";
import type { RateLimitState } from "@/lib/rate-limit-headers";
import { processSingleton } from "@/lib/singleton";
import { LeasedRateLimiter } from "./rate-limit-leases";

export interface RateLimitPolicy {
  /** Named in RateLimit-Policy and in the metrics. */
  name: "token" | "ip" | "guests" | "signin" | "promo" | "confirmation_mail" | "webhook_sends_endpoint" | "webhook_sends_account";
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult extends RateLimitState {
  allowed: boolean;
  /** The key and window this result counted in, so the count can be given back (`releaseRateLimit`). */
  counted?: { key: string; windowStart: number };
}

/** The configured policies (lib/env.ts); every call site takes its limit from here. */
export const POLICIES = {
  token: { name: "token", limit: env.RATE_LIMIT_PER_TOKEN, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS },
  ip: { name: "ip", limit: env.RATE_LIMIT_PER_IP, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS },
  /** Every guest token from one address together: one token's quota, however many tokens the address mints. */
  guests: { name: "guests", limit: env.RATE_LIMIT_GUESTS_PER_IP, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS },
  signin: { name: "signin", limit: env.RATE_LIMIT_SIGNIN, windowSeconds: env.RATE_LIMIT_STRICT_WINDOW_SECONDS },
  promo: { name: "promo", limit: env.RATE_LIMIT_PROMO, windowSeconds: env.RATE_LIMIT_STRICT_WINDOW_SECONDS },
  /** Asking for the confirmation mail again, per account: its owner's inbox is not a target. */
  confirmationMail: {
    name: "confirmation_mail",
    limit: env.RATE_LIMIT_CONFIRMATION_MAIL,
    windowSeconds: env.RATE_LIMIT_STRICT_WINDOW_SECONDS,
  },
  /** Webhook test events and resends: each makes the store POST to a URL its owner chose, so the store is no reflector. */
  webhookSendsEndpoint: { name: "webhook_sends_endpoint", limit: env.RATE_LIMIT_WEBHOOK_SENDS_PER_ENDPOINT, windowSeconds: 60 },
  webhookSendsAccount: { name: "webhook_sends_account", limit: env.RATE_LIMIT_WEBHOOK_SENDS_PER_ACCOUNT, windowSeconds: 3600 },
} as const satisfies Record<string, RateLimitPolicy>;

export const rateLimitsEnabled = (): boolean => env.RATE_LIMITS === "on";

/** An e-mail address is a key without being stored: the hash of its lower-cased form. */
export const emailKey = (email: string): string =>
  `signin-email:${createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32)}`;

/**
 * The exact path, for the rare limits (sign-up, storefront tokens, promo guesses): counts one
 * request against `key` in the current fixed window and says whether it is within the
 * policy. One statement, one round trip: the window is aligned on the database's clock (the same
 * for every instance), created on the first request and incremented after; RETURNING gives the
 * count and the seconds left. Concurrent requests serialise on the row, so counts are exact.
 */
export async function hitRateLimit(db: Database, key: string, policy: RateLimitPolicy): Promise<RateLimitResult> {
  const w = policy.windowSeconds;
  const result = await db.execute<{ count: number; reset: number }>(sql`
    INSERT INTO rate_limits (key, window_start, expires_at, count)
    SELECT ${key}, start, start + make_interval(secs => ${w}), 1
    FROM (SELECT to_timestamp(floor(extract(epoch FROM statement_timestamp()) / ${w}) * ${w}) AS start) AS current_window
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count, ceil(extract(epoch FROM expires_at - statement_timestamp()))::int AS reset,
              extract(epoch FROM window_start)::float8 AS window_start`);
  const row = result.rows[0]! as { count: number; reset: number; window_start: number };
  return { ...state(policy, Number(row.count), Number(row.reset)), counted: { key, windowStart: Number(row.window_start) } };
}

/**
 * Gives back one count taken by `hitRateLimit`, in the window it was taken in: for policies that
 * count every attempt before judging it and forgive the ones that turn out not to count (a promo
 * code that was right). Never below zero; a window that has ended is left alone.
 */
export async function releaseRateLimit(db: Database, result: RateLimitResult): Promise<void> {
  if (!result.counted) return;
  await db.execute(sql`
    UPDATE rate_limits SET count = count - 1
    WHERE key = ${result.counted.key} AND window_start = to_timestamp(${result.counted.windowStart}) AND count > 0`);
}

/** One counter of a request that counts against several, each under its own policy. */
export interface RateLimitKey {
  key: string;
  policy: RateLimitPolicy;
  /** Names the limited thing in a refusal ("wrong promo codes from this address"). */
  what: string;
}

/**
 * Counts one request against several counters at once (a promo guess against its owner and its
 * address; a test event against its endpoint and its account), each in its own policy's current
 * window, in one statement: rows locked in key order, so concurrent callers never deadlock and
 * every count is exact. When any counter is over its limit, every count this call took is given
 * back and the refusal names that counter (the one that frees up last, when several are over).
 * Returns each counter's result, in the order given, for the response's headers and for
 * `releaseRateLimits` should the attempt turn out not to count.
 */
export async function takeRateLimits(
  db: Database,
  keys: readonly RateLimitKey[],
  others: RateLimitState[] = [],
): Promise<RateLimitResult[]> {
  const entries = keys.map(({ key, policy }) => ({ key, w: policy.windowSeconds }));
  if (new Set(entries.map((e) => e.key)).size !== entries.length) throw new Error("takeRateLimits needs distinct keys");
  const { rows } = await db.execute<{ key: string; count: number; reset: number; window_start: number }>(sql`
    INSERT INTO rate_limits (key, window_start, expires_at, count)
    SELECT e.key, current_window.start, current_window.start + make_interval(secs => e.w), 1
    FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS e(key text, w int)
    CROSS JOIN LATERAL (SELECT to_timestamp(floor(extract(epoch FROM statement_timestamp()) / e.w) * e.w) AS start) AS current_window
    ORDER BY e.key
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING key, count, ceil(extract(epoch FROM expires_at - statement_timestamp()))::int AS reset,
              extract(epoch FROM window_start)::float8 AS window_start`);
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const results = keys.map(({ key, policy }) => {
    const row = byKey.get(key)!;
    return { ...state(policy, Number(row.count), Number(row.reset)), counted: { key, windowStart: Number(row.window_start) } };
  });
  const over = results
    .map((result, i) => ({ result, what: keys[i]!.what }))
    .filter(({ result }) => !result.allowed)
    .sort((a, b) => b.result.resetSeconds - a.result.resetSeconds)[0];
  if (over) {
    await releaseRateLimits(db, results);
    // Counters of one policy (an owner's and an address's promo guesses) are one policy in the headers: the refused one.
    throw tooManyRequests(over.what, over.result, [...others, ...results.filter((r) => r.policy !== over.result.policy)]);
  }
  return results;
}

/** `releaseRateLimit` for each: one statement per counter, so no two rows are ever held in some other order. */
export async function releaseRateLimits(db: Database, results: readonly RateLimitResult[]): Promise<void> {
  for (const result of results) await releaseRateLimit(db, result);
}

/** How much of the window is used, without counting: for a check before work that is counted only when it fails. */
export function peekRateLimit(db: Database, key: string, policy: RateLimitPolicy): Promise<RateLimitResult> {
  // Peeking counts nothing: allowed while fewer than `limit` are used, since the next failure uses one.
  return peekRateLimits(db, [key], policy);
}

/**
 * The multi-key forms, one statement each: several counters of one policy (sign-in: the address
 * and the e-mail). Keys are sorted so concurrent upserts lock rows in one order (no deadlock).
 */
export async function hitRateLimits(db: Database, keys: string[], policy: RateLimitPolicy): Promise<RateLimitResult[]> {
  const w = policy.windowSeconds;
  const sorted = [...new Set(keys)].sort();
  const result = await db.execute<{ count: number; reset: number }>(sql`
    INSERT INTO rate_limits (key, window_start, expires_at, count)
    SELECT k, start, start + make_interval(secs => ${w}), 1
    FROM jsonb_array_elements_text(${JSON.stringify(sorted)}::jsonb) AS k,
         (SELECT to_timestamp(floor(extract(epoch FROM statement_timestamp()) / ${w}) * ${w}) AS start) AS current_window
    ORDER BY k
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count, ceil(extract(epoch FROM expires_at - statement_timestamp()))::int AS reset`);
  return result.rows.map((row) => state(policy, Number(row.count), Number(row.reset)));
}

/** The most used of several counters, without counting. */
export async function peekRateLimits(db: Database, keys: string[], policy: RateLimitPolicy): Promise<RateLimitResult> {
  const w = policy.windowSeconds;
  const result = await db.execute<{ count: number | null; reset: number }>(sql`
    SELECT (SELECT max(count) FROM rate_limits
            WHERE key IN (SELECT jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb)) AND window_start = start) AS count,
           ceil(extract(epoch FROM start + make_interval(secs => ${w}) - statement_timestamp()))::int AS reset
    FROM (SELECT to_timestamp(floor(extract(epoch FROM statement_timestamp()) / ${w}) * ${w}) AS start) AS current_window`);
  const row = result.rows[0]!;
  const used = Number(row.count ?? 0);
  return { ...state(policy, used, Number(row.reset)), allowed: used < policy.limit };
}

/** Forgets a key's counts (a correct password clears its e-mail's failures). */
export async function clearRateLimit(db: Database, key: string): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}

function state(policy: RateLimitPolicy, count: number, reset: number): RateLimitResult {
  return {
    policy: policy.name,
    limit: policy.limit,
    windowSeconds: policy.windowSeconds,
    remaining: Math.max(0, policy.limit - count),
    resetSeconds: Math.max(0, reset),
    allowed: count <= policy.limit,
  };
}

/**
 * The 429 for a used-up policy; `what` names the limited thing in the message ("this token"),
 * `others` are the policies the request was counted against before, listed in its headers too.
 */
export function tooManyRequests(what: string, result: RateLimitState, others: RateLimitState[] = []): DomainError<"rate_limited"> {
  recordRateLimited(result);
  return new DomainError("rate_limited", { what, state: result, others });
}

/** Counts a refusal in the metrics, for callers that answer a used-up limit in their own way (forms). */
export function recordRateLimited(result: RateLimitState): void {
  metrics.rateLimited.inc({ policy: result.policy });
}

/**
 * Counts the request and throws the 429 when over; returns the state for the response's headers.
 * The busy path: through this process's quota leases (./rate-limit-leases.ts), one statement per
 * block of requests instead of one per request; never more than the limit admitted per window
 * across all processes, and a refusal only once at least limit − (processes − 1) × a small block
 * were admitted (the exact bounds are there).
 */
export async function enforceRateLimit(db: Database, key: string, policy: RateLimitPolicy, what: string): Promise<RateLimitResult> {
  const result = await processLeases().hit(db, key, policy);
  if (!result.allowed) throw tooManyRequests(what, result);
  return result;
}

const processLeases = (): LeasedRateLimiter => processSingleton("rate-limit-leases", () => new LeasedRateLimiter());

/** Deletes windows that have ended; returns how many rows went. */
export async function purgeExpiredRateLimits(db: Database, { limit }: { limit: number }): Promise<number> {
  const result = await db.execute(sql`
    DELETE FROM rate_limits WHERE ctid = ANY (ARRAY(SELECT ctid FROM rate_limits WHERE expires_at < now() LIMIT ${limit}))`);
  return result.rowCount ?? 0;
}
