import { describe, expect, it } from "vitest";
import {
  ATTRIBUTION_COOKIE,
  ATTRIBUTION_MAX_AGE_SECONDS,
  attributionCookieFor,
  attributionFromCookieHeader,
  attributionFromSearchParams,
  parseAttributionCookie,
} from "./attribution";

const now = new Date("2026-03-01T12:00:00.000Z");
const params = (query: string) => new URLSearchParams(query);

describe("attributionFromSearchParams", () => {
  it.each([
    ["utm_source=newsletter&utm_medium=email", { utm_source: "newsletter", utm_medium: "email" }],
    ["utm_source=vk", { utm_source: "vk" }],
    ["utm_medium=cpc", { utm_medium: "cpc" }],
    [
      "utm_source=vk&utm_medium=cpc&utm_campaign=spring&utm_content=banner&utm_term=portal",
      { utm_source: "vk", utm_medium: "cpc", utm_campaign: "spring", utm_content: "banner", utm_term: "portal" },
    ],
    ["utm_source=%20vk%20", { utm_source: "vk" }],
    ["utm_source=vk&gclid=abc&platform=570", { utm_source: "vk" }],
    // A bad value is dropped, not the visit: the API would refuse it.
    [`utm_source=vk&utm_campaign=${"x".repeat(201)}`, { utm_source: "vk" }],
    ["utm_source=&utm_medium=email", { utm_medium: "email" }],
  ])("%s -> %j", (query, expected) => {
    expect(attributionFromSearchParams(params(query))).toEqual(expected);
  });

  it.each(["", "utm_campaign=spring", "utm_source=&utm_medium=", `utm_source=${"x".repeat(201)}`, "platform=730"])(
    "%j is not a campaign visit",
    (query) => {
      expect(attributionFromSearchParams(params(query))).toBeNull();
    },
  );
});

describe("the cookie", () => {
  it("stores the campaign with the time of the visit and reads it back without it", () => {
    const value = attributionCookieFor(params("utm_source=newsletter&utm_medium=email"), now);
    expect(JSON.parse(value!)).toEqual({ utm_source: "newsletter", utm_medium: "email", at: "2026-03-01T12:00:00.000Z" });
    expect(parseAttributionCookie(value, now)).toEqual({ utm_source: "newsletter", utm_medium: "email" });
  });

  it("is left alone by a visit without a campaign", () => {
    expect(attributionCookieFor(params("platform=730&utm_campaign=spring"), now)).toBeNull();
  });

  it("last touch wins: a new campaign replaces the whole record", () => {
    let cookie: string | null = null;
    const visit = (query: string, at: Date) => {
      cookie = attributionCookieFor(params(query), at) ?? cookie;
    };
    visit("utm_source=newsletter&utm_medium=email&utm_campaign=spring", new Date("2026-02-01T00:00:00Z"));
    visit("", new Date("2026-02-02T00:00:00Z"));
    expect(parseAttributionCookie(cookie, now)).toEqual({ utm_source: "newsletter", utm_medium: "email", utm_campaign: "spring" });
    visit("utm_source=vk&utm_medium=cpc", new Date("2026-02-03T00:00:00Z"));
    visit("platform=570", new Date("2026-02-04T00:00:00Z"));
    // Nothing of the earlier campaign (utm_campaign=spring) is left in the later one.
    expect(parseAttributionCookie(cookie, now)).toEqual({ utm_source: "vk", utm_medium: "cpc" });
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["not JSON", "newsletter"],
    ["a JSON array", "[1]"],
    ["without a time", JSON.stringify({ utm_source: "vk" })],
    ["with a bad time", JSON.stringify({ utm_source: "vk", at: "yesterday" })],
    ["with an unknown field", JSON.stringify({ utm_source: "vk", gclid: "x", at: now.toISOString() })],
    ["with a non-string value", JSON.stringify({ utm_source: 5, at: now.toISOString() })],
    ["with an over-long value", JSON.stringify({ utm_source: "x".repeat(201), at: now.toISOString() })],
    ["with neither source nor medium", JSON.stringify({ utm_campaign: "spring", at: now.toISOString() })],
    [
      "older than 30 days",
      JSON.stringify({ utm_source: "vk", at: new Date(now.getTime() - ATTRIBUTION_MAX_AGE_SECONDS * 1000 - 1000).toISOString() }),
    ],
    ["from the future", JSON.stringify({ utm_source: "vk", at: new Date(now.getTime() + 3_600_000).toISOString() })],
  ])("ignores a cookie %s", (_, value) => {
    expect(parseAttributionCookie(value, now)).toBeUndefined();
  });

  it("accepts one just under 30 days old", () => {
    const at = new Date(now.getTime() - ATTRIBUTION_MAX_AGE_SECONDS * 1000 + 1000).toISOString();
    expect(parseAttributionCookie(JSON.stringify({ utm_medium: "email", at }), now)).toEqual({ utm_medium: "email" });
  });

  it("is found among the page's cookies, URL-encoded as the server sets it", () => {
    const value = attributionCookieFor(params("utm_source=newsletter&utm_medium=e-mail%20%26%20more"), now)!;
    const header = `locale=en; ${ATTRIBUTION_COOKIE}=${encodeURIComponent(value)}; other=1`;
    expect(attributionFromCookieHeader(header, now)).toEqual({ utm_source: "newsletter", utm_medium: "e-mail & more" });
    expect(attributionFromCookieHeader("locale=en", now)).toBeUndefined();
    expect(attributionFromCookieHeader(`${ATTRIBUTION_COOKIE}=%E0%A4%A`, now)).toBeUndefined();
  });
});
