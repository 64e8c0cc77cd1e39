import "server-only";
import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import type { AuthToken } from "./tokens";

// An unpaid intent that holds something (a gear unit, or one use of a promo code) keeps it from
// others until it expires. Making one costs nothing, so every token is capped, or one free account
// could hold the last units of an item and every use of a code, again and again (issue 24):
// - a guest's browser session: HOLD_LIMIT_PER_SESSION, and its client address;
// - an account that is not a partner: HOLD_LIMIT_PER_ACCOUNT across its storefront sessions and its
//   self-service API tokens together, and the client address of each request;
// - a partner (an admin made it one): its own cap across all its tokens (`partners.hold_cap`, else
//   HOLD_LIMIT_PER_PARTNER), and no address cap for its API tokens, which serve many shoppers
//   from the partner's own servers.
// A session or an account that is not a partner also holds at most one open use of any one promo
// code, so a code with fewer uses than the account cap is not one account's to take.

export type HoldScope = "session" | "account" | "address" | "partner";

/** Who is about to hold something, as far as the caps need. */
export interface Holder {
  token: Pick<AuthToken, "id" | "userId" | "purpose" | "guest">;
  /** A hash of the client's address (`clientKeyOf`), or null when unknown. */
  clientKey: string | null;
}

/** One intent about to be made: its holder, and the promo code it will hold a use of, if any. */
export interface HoldRequest {
  holder: Holder;
  code?: { id: number; code: string };
}

/** Refused, or admitted with the address key to record on the intent (null when no address cap applies). */
export type HoldVerdict = { ok: false; refusal: DomainError } | { ok: true; clientKey: string | null };

/** The address as the caps count it: a hash, so the intents table never holds an address. */
export const clientKeyOf = (address: string): string => createHash("sha256").update(`hold:${address}`).digest("hex").slice(0, 32);

/**
 * How many of the unpaid intents `i` a count reads have not expired yet, by the database clock.
 * Expiry is a FILTER, never a WHERE condition: asked for `expires_at > now()` in the WHERE, a
 * planner whose statistics predate a burst of new open intents takes the sweeper's index and walks
 * every open intent of the store; without it only the item's or the holder's own index fits
 * (drizzle/0024, tests/integration/open-intent-plans.test.ts).
 */
export const UNEXPIRED_COUNT = sql<number>`(count(*) FILTER (WHERE i.expires_at > now()))::int`;

/** Unpaid and holding (a gear unit or a promo-code use); open means unexpired too (UNEXPIRED_COUNT). */
const UNPAID_HOLD = sql`i.status = 'requires_payment' AND (i.gear_item_id IS NOT NULL OR i.promo_code_id IS NOT NULL)`;

/**
 * The tokens of an account that may still have open intents: a token that expired or was revoked
 * more than an intent's lifetime ago has none left, and a shopper's past storefront sessions (one
 * per half hour of browsing) need not be read one by one.
 */
const liveTokensOf = (userId: string) => sql`(SELECT t.id FROM api_tokens t WHERE t.user_id = ${userId}
  AND (t.expires_at IS NULL OR t.expires_at > now() - make_interval(secs => ${env.INTENT_TTL_SECONDS}))
  AND (t.revoked_at IS NULL OR t.revoked_at > now() - make_interval(secs => ${env.INTENT_TTL_SECONDS})))`;

interface Counter {
  scope: HoldScope;
  key: string;
  max: number;
  where: SQL;
  /** Whether one promo code may be held once only within it. */
  perCode: boolean;
}

function countersOf(holder: Holder, partnerCap: number | undefined): Counter[] {
  const { token } = holder;
  const counters: Counter[] = [];
  if (token.guest)
    counters.push({
      scope: "session",
      key: `hold:token:${token.id}`,
      max: env.HOLD_LIMIT_PER_SESSION,
      where: sql`i.token_id = ${token.id}`,
      perCode: true,
    });
  else if (partnerCap !== undefined)
    counters.push({
      scope: "partner",
      key: `hold:user:${token.userId}`,
      max: partnerCap,
      where: sql`i.token_id IN ${liveTokensOf(token.userId)}`,
      perCode: false,
    });
  else
    counters.push({
      scope: "account",
      key: `hold:user:${token.userId}`,
      max: env.HOLD_LIMIT_PER_ACCOUNT,
      where: sql`i.token_id IN ${liveTokensOf(token.userId)}`,
      perCode: true,
    });
  const addressCapped = partnerCap === undefined || token.purpose === "storefront";
  if (addressCapped && holder.clientKey)
    counters.push({
      scope: "address",
      key: `hold:addr:${holder.clientKey}`,
      max: env.HOLD_LIMIT_PER_ADDRESS,
      where: sql`i.client_key = ${holder.clientKey}`,
      perCode: false,
    });
  return counters;
}

/**
 * Inside the transaction that will insert the holding intents, before it does: decides, in order,
 * which of them their holders' caps admit. Every counter involved is locked for the rest of the
 * transaction (advisory locks, taken in one order by every path, so none waits in a circle) and
 * counted once after the locks are held, so concurrent requests and batches are judged one at a
 * time and a burst never gets past a cap. Three statements whatever the number of requests: a
 * batch of reservations (lib/services/intents.ts) pays for its caps once.
 */
export async function claimHoldSlots(tx: DbExecutor, requests: HoldRequest[]): Promise<HoldVerdict[]> {
  const owners = [...new Set(requests.filter((r) => !r.holder.token.guest).map((r) => r.holder.token.userId))];
  const caps = new Map<string, number>();
  if (owners.length > 0) {
    const { rows } = await tx.execute<{ user_id: string; hold_cap: number | null }>(
      sql`SELECT user_id, hold_cap FROM partners WHERE user_id IN (${sql.join(
        owners.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    for (const r of rows) caps.set(r.user_id, r.hold_cap ?? env.HOLD_LIMIT_PER_PARTNER);
  }
  const countersPerRequest = requests.map((r) => countersOf(r.holder, r.holder.token.guest ? undefined : caps.get(r.holder.token.userId)));
  const counters = new Map(countersPerRequest.flat().map((c) => [c.key, c]));
  const keys = [...counters.keys()].sort();
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
    FROM (SELECT k FROM unnest(ARRAY[${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )}]::text[]) AS k ORDER BY k OFFSET 0) AS ordered`);

  // Read after the locks are held: in READ COMMITTED this statement sees every hold committed before.
  const { rows } = await tx.execute<{ key: string; n: number; codes: number[] | null }>(
    sql.join(
      keys.map((key) => {
        const c = counters.get(key)!;
        const codes = c.perCode
          ? sql`array_agg(i.promo_code_id) FILTER (WHERE i.expires_at > now() AND i.promo_code_id IS NOT NULL)`
          : sql`NULL::int[]`;
        return sql`(SELECT ${key}::text AS key, ${UNEXPIRED_COUNT} AS n, ${codes} AS codes FROM intents i WHERE ${c.where} AND ${UNPAID_HOLD})`;
      }),
      sql` UNION ALL `,
    ),
  );
  const open = new Map(rows.map((r) => [r.key, { n: Number(r.n), codes: new Set((r.codes ?? []).map(Number)) }]));

  return requests.map((request, i) => {
    const mine = countersPerRequest[i]!;
    for (const c of mine) {
      const held = open.get(c.key)!;
      if (held.n >= c.max) return { ok: false, refusal: new DomainError("hold_limit_reached", { scope: c.scope, max: c.max }) };
      const { code } = request;
      if (code && c.perCode && held.codes.has(code.id)) {
        return {
          ok: false,
          refusal: new DomainError("promo_code_held", { code: code.code, scope: c.scope as "session" | "account" }, "code"),
        };
      }
    }
    for (const c of mine) {
      const held = open.get(c.key)!;
      held.n += 1;
      if (request.code && c.perCode) held.codes.add(request.code.id);
    }
    return { ok: true, clientKey: mine.some((c) => c.scope === "address") ? request.holder.clientKey : null };
  });
}

/** One request's claim: throws its refusal, or answers the address key to record on its intent. */
export async function claimHoldSlot(tx: DbExecutor, request: HoldRequest): Promise<string | null> {
  const [verdict] = await claimHoldSlots(tx, [request]);
  if (!verdict!.ok) throw verdict!.refusal;
  return verdict!.clientKey;
}
