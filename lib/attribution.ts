import { z } from "zod";
import { attributionSchema, type Attribution } from "@/lib/schemas/common";

// Marketing attribution of a visit: the proxy remembers the last campaign link a shopper arrived
// by, and the checkout forms send it with the intent. Pure functions: the proxy and the browser
// both use them.

/** First-party, readable by the store's own scripts (the forms send it); holds nothing secret. */
export const ATTRIBUTION_COOKIE = "gk_attribution";
export const ATTRIBUTION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"] as const;

const storedSchema = attributionSchema.extend({ at: z.iso.datetime() });

/**
 * The attribution a landing URL carries, or null when it names neither utm_source nor utm_medium.
 * A value the API would refuse (empty, over 200 characters) is left out rather than the whole visit.
 */
export function attributionFromSearchParams(params: URLSearchParams): Attribution | null {
  const found: Attribution = {};
  for (const key of UTM_KEYS) {
    const parsed = attributionSchema.shape[key].safeParse(params.get(key) ?? undefined);
    if (parsed.success && parsed.data !== undefined) found[key] = parsed.data;
  }
  return found.utm_source || found.utm_medium ? found : null;
}

/**
 * The cookie value for a visit to `url`, or null when the visit carries no campaign and the cookie
 * must stay as it is. Last touch wins: a new campaign replaces the whole record, so a previous
 * campaign's medium or term never mixes into it; a visit without one (a direct visit, a reload of a
 * plain page) keeps the last campaign.
 */
export function attributionCookieFor(params: URLSearchParams, now: Date): string | null {
  const attribution = attributionFromSearchParams(params);
  return attribution ? JSON.stringify({ ...attribution, at: now.toISOString() }) : null;
}

/**
 * What the cookie says, ready to send as `attribution`, or undefined when it is missing, older
 * than 30 days (a browser that ignored Max-Age) or not something this store wrote.
 */
export function parseAttributionCookie(value: string | undefined | null, now: Date): Attribution | undefined {
  if (!value) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return undefined;
  }
  const parsed = storedSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { at, ...attribution } = parsed.data;
  const age = now.getTime() - Date.parse(at);
  if (!(age >= -60_000 && age <= ATTRIBUTION_MAX_AGE_SECONDS * 1000)) return undefined;
  return attribution.utm_source || attribution.utm_medium ? attribution : undefined;
}

/** The attribution cookie out of a `document.cookie` string. */
export function attributionFromCookieHeader(cookieHeader: string, now: Date): Attribution | undefined {
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === ATTRIBUTION_COOKIE) {
      let value = part.slice(eq + 1).trim();
      try {
        value = decodeURIComponent(value);
      } catch {
        return undefined;
      }
      return parseAttributionCookie(value, now);
    }
  }
  return undefined;
}

/** In the browser: the visit's attribution to send with an intent. */
export function currentAttribution(): Attribution | undefined {
  return typeof document === "undefined" ? undefined : attributionFromCookieHeader(document.cookie, new Date());
}
