import { NextResponse, type NextRequest } from "next/server";
import { errorResponse } from "@/lib/api/errors";
import { ATTRIBUTION_COOKIE, ATTRIBUTION_MAX_AGE_SECONDS, attributionCookieFor } from "@/lib/attribution";
import { bufferVisit, campaignVisitOf } from "@/lib/campaigns/visits";
import { env } from "@/lib/env";
import { isForeignServerAction } from "@/lib/http/same-origin";
import { createNonce, pageSecurityHeaders } from "@/lib/security-headers";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

// Every page: a Content Security Policy with a fresh nonce (Next reads it from the request's
// header and puts it on its own scripts), the other security headers and a request id. And it
// remembers the campaign a shopper arrived by (last touch, 30 days) for the checkout forms to
// send with their intent; the URL is left as it is, so shared links with UTM parameters keep working.
// Such a visit is also counted for the campaign report: in memory here, written every few seconds
// by the server process (lib/services/campaign-visits.ts), so no page waits on the database.
export function proxy(request: NextRequest) {
  // Next aborts a cross-origin server action with a 500 (and a stack trace in the log); say 403.
  if (isForeignServerAction(request.headers, request.method)) return errorResponse("forbidden_origin", { what: "server actions" });
  const nonce = createNonce();
  const headers = pageSecurityHeaders({
    nonce,
    pathname: request.nextUrl.pathname,
    https: servedOverHttps(request),
    dev: env.NODE_ENV === "development",
    imageHosts: env.IMAGE_HOSTS,
  });
  const given = request.headers.get("x-request-id");
  const requestId = given && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();

  const forwarded = new Headers(request.headers);
  forwarded.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  forwarded.set("x-request-id", requestId);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  response.headers.set("X-Request-Id", requestId);

  const now = new Date();
  const visit = campaignVisitOf(
    { method: request.method, pathname: request.nextUrl.pathname, searchParams: request.nextUrl.searchParams, headers: request.headers },
    now,
  );
  if (visit) bufferVisit(visit);

  const value = attributionCookieFor(request.nextUrl.searchParams, now);
  if (value) {
    response.cookies.set(ATTRIBUTION_COOKIE, value, {
      path: "/",
      maxAge: ATTRIBUTION_MAX_AGE_SECONDS,
      sameSite: "lax",
      secure: request.nextUrl.protocol === "https:",
      // The checkout forms read it in the browser; it holds only the campaign names from the URL.
      httpOnly: false,
    });
  }
  return response;
}

/** HSTS only when the visitor really used https: the public origin says so, or a trusted proxy does. */
function servedOverHttps(request: NextRequest): boolean {
  if (env.PUBLIC_BASE_URL) return env.PUBLIC_BASE_URL.startsWith("https:");
  if (env.TRUST_PROXY > 0) return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
  return request.nextUrl.protocol === "https:";
}

// Pages only: never the API (JSON, no CSP), static assets or covers, nor a router prefetch (its
// answer is not a document, and a prefetched link is not a visit). Literals only: Next reads the
// matcher at build time.
export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static/|_next/image|covers/|favicon\\.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
