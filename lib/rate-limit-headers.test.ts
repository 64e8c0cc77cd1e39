import { describe, expect, it } from "vitest";
import { rateLimitHeaders, tooManyRequestsHeaders, tooManyRequestsMessage } from "./rate-limit-headers";

const state = { policy: "token", limit: 600, windowSeconds: 60, remaining: 42, resetSeconds: 17 };

describe("rate limit headers", () => {
  it("follow the draft's structured fields", () => {
    expect(rateLimitHeaders(state)).toEqual({ "RateLimit-Policy": '"token";q=600;w=60', RateLimit: '"token";r=42;t=17' });
  });

  it("list every policy a request was counted against", () => {
    const promo = { policy: "promo", limit: 20, windowSeconds: 900, remaining: 3, resetSeconds: 400 };
    expect(rateLimitHeaders([state, promo])).toEqual({
      "RateLimit-Policy": '"token";q=600;w=60, "promo";q=20;w=900',
      RateLimit: '"token";r=42;t=17, "promo";r=3;t=400',
    });
  });

  it("never go negative", () => {
    expect(rateLimitHeaders({ ...state, remaining: -5, resetSeconds: -1 }).RateLimit).toBe('"token";r=0;t=0');
  });

  it("a 429 waits at least a second", () => {
    expect(tooManyRequestsHeaders({ ...state, remaining: 0, resetSeconds: 0 })["Retry-After"]).toBe("1");
    expect(tooManyRequestsHeaders({ ...state, remaining: 0 })["Retry-After"]).toBe("17");
  });

  it("says what is limited and how long to wait", () => {
    expect(tooManyRequestsMessage("requests with this token", { ...state, remaining: 0 })).toBe(
      "too many requests: at most 600 requests with this token per 60 s; try again in 17 s",
    );
  });
});
