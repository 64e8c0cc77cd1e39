import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import type { AuthToken } from "./tokens";

// An unpaid intent that holds something (a gear unit, or one use of a promo code) keeps it from
// others until it expires. Nothing costs a shopper for making one, so without a cap one guest could
// hold the last units of an item and every use of a code, again and again. The store's own pages
// (guests and signed-in shoppers) are capped per browser session, per account and per client
// address; partners' API tokens are not (their per-token rate limit bounds them, and they create
// intents for many shoppers from one address).

export type HoldScope = "session" | "account" | "address";

/** Who is about to hold something, as far as the caps need. */
export interface Holder {
  token: Pick<AuthToken, "id" | "userId" | "purpose" | "guest">;
  /** A hash of the client's address (`clientKeyOf`), or null when unknown. */
  clientKey: string | null;
}

/** The address as the caps count it: a hash, so the intents table never holds an address. */
export const clientKeyOf = (address: string): string => createHash("sha256").update(`hold:${address}`).digest("hex").slice(0, 32);

const LIMITS: Record<HoldScope, number> = {
  session: env.HOLD_LIMIT_PER_SESSION,
  account: env.HOLD_LIMIT_PER_ACCOUNT,
  address: env.HOLD_LIMIT_PER_ADDRESS,
};

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
 * Inside the transaction that will insert a holding intent, before it does: refuses when the
 * holder's session, account or address already has its most open holds. Each counter is locked
 * for the rest of the transaction (advisory locks, in one order), so concurrent requests are judged
 * one at a time and a burst never gets past a cap.
 */
export async function claimHoldSlot(tx: DbExecutor, holder: Holder): Promise<void> {
  if (holder.token.purpose !== "storefront") return;
  const scopes: [HoldScope, string][] = [
    holder.token.guest ? ["session", `hold:token:${holder.token.id}`] : ["account", `hold:user:${holder.token.userId}`],
  ];
  if (holder.clientKey) scopes.push(["address", `hold:addr:${holder.clientKey}`]);
  for (const [, key] of [...scopes].sort((a, b) => a[1].localeCompare(b[1]))) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  }
  for (const [scope] of scopes) {
    const open = await countOpenHolds(tx, scope, holder);
    if (open >= LIMITS[scope]) throw new DomainError("hold_limit_reached", { scope, max: LIMITS[scope] });
  }
}

async function countOpenHolds(tx: DbExecutor, scope: HoldScope, holder: Holder): Promise<number> {
  const where =
    scope === "session"
      ? sql`i.token_id = ${holder.token.id}`
      : scope === "account"
        ? sql`i.token_id IN (SELECT id FROM api_tokens WHERE user_id = ${holder.token.userId} AND purpose = 'storefront')`
        : sql`i.client_key = ${holder.clientKey}`;
  const { rows } = await tx.execute<{ n: number }>(sql`SELECT ${UNEXPIRED_COUNT} AS n FROM intents i WHERE ${where} AND ${UNPAID_HOLD}`);
  return Number(rows[0]?.n ?? 0);
}
