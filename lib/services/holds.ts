import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
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
//
// The database judges them (claim_hold_slots, drizzle/0026): it locks each counter, counts it and
// decides, in the statement that inserts the intents, so a batch of reservations stays one
// statement and a burst never gets past a cap. An account's and a partner's open holds are read
// from open_hold_counts, which triggers on intents keep per 10-second span of expiry: a partner
// with tens of thousands open costs a sum of at most 91 rows, not a count of them all (an intent
// counts until at most 10 s past its expiry).

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
  codeId?: number;
}

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

/** claim_hold_slots' argument for these intents, in their order, with the caps in force. */
export function holdClaim(requests: HoldRequest[]): string {
  return JSON.stringify({
    limits: {
      session: env.HOLD_LIMIT_PER_SESSION,
      account: env.HOLD_LIMIT_PER_ACCOUNT,
      address: env.HOLD_LIMIT_PER_ADDRESS,
      partner: env.HOLD_LIMIT_PER_PARTNER,
      ttl: env.INTENT_TTL_SECONDS,
    },
    holds: requests.map(({ holder, codeId }) => ({
      token: holder.token.id,
      user: holder.token.userId,
      guest: holder.token.guest,
      purpose: holder.token.purpose,
      client: holder.clientKey,
      code: codeId ?? null,
    })),
  });
}

/**
 * Inside the transaction that will insert one holding intent, before it does: claims its slot, or
 * throws the refusal. Answers the client key to record on the intent (null when no address cap
 * applies). The counters stay locked until the transaction ends.
 */
export async function claimHoldSlot(tx: DbExecutor, request: HoldRequest): Promise<string | null> {
  try {
    const { rows } = await tx.execute<{ keys: (string | null)[] }>(sql`SELECT claim_hold_slots(${holdClaim([request])}::jsonb) AS keys`);
    return rows[0]?.keys[0] ?? null;
  } catch (err) {
    throw holdRefusalOf(err) ?? err;
  }
}

/** Drops spans of open_hold_counts that ended a while ago (they count nothing); how many went. */
export async function purgeOpenHoldCounts(db: DbExecutor, { limit }: { limit: number }): Promise<number> {
  const result = await db.execute(sql`
    DELETE FROM open_hold_counts WHERE ctid = ANY (ARRAY(
      SELECT ctid FROM open_hold_counts WHERE bucket < now() - interval '1 minute' LIMIT ${limit}))`);
  return result.rowCount ?? 0;
}

/** The refusal claim_hold_slots raised, as the API tells it; undefined for any other error. */
export function holdRefusalOf(err: unknown): DomainError | undefined {
  const state = sqlStateOf(err);
  if (state !== SQLSTATE.holdLimit && state !== SQLSTATE.promoCodeHeld) return undefined;
  const source = (err as { cause?: { detail?: string }; detail?: string }).cause ?? (err as { detail?: string });
  const [scope = "", value = ""] = (source.detail ?? "").split(":");
  if (state === SQLSTATE.holdLimit) return new DomainError("hold_limit_reached", { scope: scope as HoldScope, max: Number(value) });
  return new DomainError("promo_code_held", { code: value, scope: scope as "session" | "account" }, "code");
}
