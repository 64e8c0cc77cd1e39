/**
 * The RateLimit header fields of draft-ietf-httpapi-ratelimit-headers (-10/-11): the policy a
 * response was counted against and what is left of it, as Structured Fields.
 *   RateLimit-Policy: "token";q=600;w=60
 *   RateLimit: "token";r=42;t=17
 */
export interface RateLimitState {
  /** The policy's name: which counter this was (`token`, `ip`, `signin`, `promo`). */
  policy: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
  /** Requests left in the current window (0 once it is used up). */
  remaining: number;
  /** Seconds until the window ends and the quota is whole again. */
  resetSeconds: number;
}

export function rateLimitHeaders(states: RateLimitState | RateLimitState[]): Record<string, string> {
  const list = Array.isArray(states) ? states : [states];
  // Each field is a list: one member per policy the request was counted against.
  return {
    "RateLimit-Policy": list.map((s) => `${JSON.stringify(s.policy)};q=${s.limit};w=${s.windowSeconds}`).join(", "),
    RateLimit: list.map((s) => `${JSON.stringify(s.policy)};r=${Math.max(0, s.remaining)};t=${Math.max(0, s.resetSeconds)}`).join(", "),
  };
}

/** A 429's extra headers: the RateLimit fields (the used-up policy last) and Retry-After (at least 1 s). */
export function tooManyRequestsHeaders(state: RateLimitState, others: RateLimitState[] = []): Record<string, string> {
  return { ...rateLimitHeaders([...others, state]), "Retry-After": String(Math.max(1, state.resetSeconds)) };
}

/** `what` counts the limited things: "requests with this token", "wrong promo codes for this token's owner". */
export function tooManyRequestsMessage(what: string, state: RateLimitState): string {
  const wait = Math.max(1, state.resetSeconds);
  return `too many requests: at most ${state.limit} ${what} per ${state.windowSeconds} s; try again in ${wait} s`;
}
