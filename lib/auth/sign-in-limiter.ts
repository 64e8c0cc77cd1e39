import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { POLICIES, emailKey, rateLimitsEnabled, recordRateLimited } from "@/lib/services/rate-limits";

/**
 * How many tries one address gets on an account that has had more than the limit of failures from
 * everywhere in this window (guessing spread over many addresses): enough for its owner to mistype.
 */
export const TRIES_PER_ADDRESS_UNDER_ATTACK = 3;
/** Failures one address may spend across all accounts, in multiples of the per-account limit. */
export const ADDRESS_LIMIT_FACTOR = 3;

export type SignInOutcome<T> = { ok: true; value: T } | { ok: false; reason: "invalid" | "rate_limited" };

type Counts = { address: number; pair: number; account: number };

/**
 * Password guessing, limited in the database so it holds across instances and processes. It locks
 * the guesser out, not the account's owner. Three counters per window
 * (RATE_LIMIT_STRICT_WINDOW_SECONDS, limit L = RATE_LIMIT_SIGNIN):
 * - address and account together: more than L tries and this address may not try this account again;
 * - the address across accounts: more than 3·L and it may not try any account;
 * - the account from anywhere: past L it only slows guessing down, never locks: each address may then
 *   try it 3 times (a fresh address, such as the owner's, needs nothing extra).
 * Every attempt is counted in one statement before it is judged, so concurrent attempts cannot slip
 * past a limit between a check and a count; a correct password gives its attempt back, so people
 * behind one address who sign in correctly never use anything up.
 */
export async function limitSignIn<T>(
  db: Database,
  email: string,
  address: string,
  verify: () => Promise<T | null>,
): Promise<SignInOutcome<T>> {
  if (!rateLimitsEnabled()) {
    const value = await verify();
    return value === null ? { ok: false, reason: "invalid" } : { ok: true, value };
  }
  const keys = signInKeys(email, address);
  const { counts, windowStart } = await countAttempt(db, keys);
  if (blocked(counts)) {
    recordRateLimited({
      policy: POLICIES.signin.name,
      limit: POLICIES.signin.limit,
      windowSeconds: POLICIES.signin.windowSeconds,
      remaining: 0,
      resetSeconds: 0,
    });
    return { ok: false, reason: "rate_limited" };
  }
  const value = await verify();
  if (value === null) return { ok: false, reason: "invalid" };
  await giveBack(db, Object.values(keys), windowStart);
  return { ok: true, value };
}

function blocked({ address, pair, account }: Counts): boolean {
  const limit = POLICIES.signin.limit;
  return pair > limit || address > ADDRESS_LIMIT_FACTOR * limit || (account > limit && pair > TRIES_PER_ADDRESS_UNDER_ATTACK);
}

function signInKeys(email: string, address: string): Record<keyof Counts, string> {
  const account = emailKey(email);
  return { address: `signin:${address}`, pair: `signin-pair:${address}|${account.slice("signin-email:".length)}`, account };
}

/** One upsert of the three counters in key order (concurrent attempts lock rows alike: no deadlock). */
async function countAttempt(db: Database, keys: Record<keyof Counts, string>): Promise<{ counts: Counts; windowStart: string }> {
  const w = POLICIES.signin.windowSeconds;
  const sorted = Object.values(keys).sort();
  const { rows } = await db.execute<{ key: string; count: number; window_start: string }>(sql`
    INSERT INTO rate_limits (key, window_start, expires_at, count)
    SELECT k, start, start + make_interval(secs => ${w}), 1
    FROM jsonb_array_elements_text(${JSON.stringify(sorted)}::jsonb) AS k,
         (SELECT to_timestamp(floor(extract(epoch FROM statement_timestamp()) / ${w}) * ${w}) AS start) AS current_window
    ORDER BY k
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING key, count, window_start::text`);
  const count = (key: string) => Number(rows.find((r) => r.key === key)?.count ?? 0);
  return {
    counts: { address: count(keys.address), pair: count(keys.pair), account: count(keys.account) },
    windowStart: rows[0]?.window_start ?? "",
  };
}

/** Takes a correct sign-in's attempt off the counters of the window it was counted in. */
async function giveBack(db: Database, keys: string[], windowStart: string): Promise<void> {
  await db.execute(sql`
    UPDATE rate_limits AS r SET count = r.count - 1
    FROM (SELECT key, window_start FROM rate_limits
          WHERE key IN (SELECT jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb)) AND window_start = ${windowStart}::timestamptz AND count > 0
          ORDER BY key FOR UPDATE) AS locked
    WHERE r.key = locked.key AND r.window_start = locked.window_start`);
}
