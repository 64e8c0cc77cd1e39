// POST /api/storefront/token - a short-lived /api/v1 token for this browser session of the store's own pages
import { errorResponse } from "@/lib/api/errors";
import { clientAddressOf, withRequestContext } from "@/lib/api/request-context";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { originHost } from "@/lib/http/same-origin";
import { rateLimitHeaders } from "@/lib/rate-limit-headers";
import { POLICIES, hitRateLimit, rateLimitsEnabled, tooManyRequests } from "@/lib/services/rate-limits";
import { issueStorefrontToken } from "@/lib/services/tokens";

export const POST = withRequestContext(async (request: Request) => {
  // Only the store's own pages may ask: a cross-site page must not mint tokens in a visitor's name.
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  const host = request.headers.get("host");
  const sameOrigin = site ? site === "same-origin" : host !== null && originHost(origin) === host;
  if (!sameOrigin) return errorResponse("forbidden_origin", { what: "storefront tokens" });
  const db = getDb();
  // Each token gets its own per-token limit, so minting them is limited per address.
  const limit = rateLimitsEnabled() ? await hitRateLimit(db, `ip:${clientAddressOf(request.headers)}`, POLICIES.ip) : null;
  if (limit && !limit.allowed) {
    const refused = tooManyRequests("storefront tokens from this address", limit);
    return errorResponse(refused.reason, refused.details);
  }
  const user = await getSessionUser();
  const issued = await issueStorefrontToken(db, user?.id ?? null, user?.sessionVersion);
  return Response.json(
    { token: issued.token, expiresAt: issued.expiresAt.toISOString(), owner: user ? "user" : "guest" },
    { headers: { "Cache-Control": "no-store", ...(limit ? rateLimitHeaders(limit) : {}) } },
  );
});
