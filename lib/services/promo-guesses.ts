import "server-only";
import type { Database } from "@/lib/db/client";
import type { RateLimitState } from "@/lib/rate-limit-headers";
import { POLICIES, releaseRateLimits, takeRateLimits, type RateLimitKey, type RateLimitResult } from "./rate-limits";
import { isPartner } from "./partner-status";
import type { AuthToken } from "./tokens";

// Wrong promo codes are guesses at the store's codes, limited per window (RATE_LIMIT_PROMO) for
// whoever guesses: the token's owner (a guest's browser session, since guests share one owner) and
// the client's address. An account is free to make, so an owner's limit alone let each new account
// bring a fresh one from the same address; the address's limit is shared by all of them.

/** The guesses a request with a code holds while it is judged, given back unless the code was wrong. */
export interface PromoGuess {
  counted: RateLimitResult[];
  /** The counter nearest its limit, for the response's RateLimit headers. */
  state: RateLimitResult;
}

/**
 * Whether a token's wrong codes count against its client's address too: a shopper's (guest,
 * storefront session or self-service token) do; a partner's do not, since its servers guess for
 * many shoppers from one address and its owner is an account an admin manages (its owner's limit
 * still holds). One lookup, only for requests that carry a code.
 */
async function countsPerAddress(db: Database, token: AuthToken): Promise<boolean> {
  if (token.guest || token.purpose === "storefront") return true;
  return !(await isPartner(db, token.userId));
}

function promoGuessKeys(token: AuthToken, address: string, perAddress: boolean): RateLimitKey[] {
  const keys: RateLimitKey[] = [
    token.guest
      ? { key: `promo:session:${token.id}`, policy: POLICIES.promo, what: "wrong promo codes from this browser session" }
      : { key: `promo:user:${token.userId}`, policy: POLICIES.promo, what: "wrong promo codes for this token's owner" },
  ];
  if (perAddress) keys.push({ key: `promo:ip:${address}`, policy: POLICIES.promo, what: "wrong promo codes from this address" });
  return keys;
}

/**
 * Before a request's code is judged, takes one guess from its owner and its address at once, so a
 * burst can never have more codes judged than either allows; a request finding either used up is
 * refused with 429 (right codes too, until the window ends). `others` are the limits the request
 * was counted against before, for the refusal's headers.
 */
export async function takePromoGuess(db: Database, token: AuthToken, address: string, others: RateLimitState[]): Promise<PromoGuess> {
  const counted = await takeRateLimits(db, promoGuessKeys(token, address, await countsPerAddress(db, token)), others);
  const state = counted.reduce((nearest, r) => (r.remaining < nearest.remaining ? r : nearest));
  return { counted, state };
}

/** Gives a guess back: the code was right, or refused for a reason that is no guess (used up). */
export function returnPromoGuess(db: Database, guess: PromoGuess): Promise<void> {
  return releaseRateLimits(db, guess.counted);
}
