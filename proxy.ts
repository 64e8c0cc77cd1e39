import { NextResponse, type NextRequest } from "next/server";
import { errorResponse } from "@/lib/api/errors";
import { ATTRIBUTION_COOKIE, ATTRIBUTION_MAX_AGE_SECONDS, attributionCookieFor } from "@/lib/attribution";
import { isPrefetch } from "@/lib/campaigns/visits";
import { env } from "@/lib/env";
import { PREFETCH_MARK } from "@/lib/http/request-marks";
import { isForeignServerAction } from "@/lib/http/same-origin";
import { createNonce, pageSecurityHeaders } from "@/lib/security-headers";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

// Every page, prefetched ones included: a Content Security Policy with a fresh nonce (Next reads it
// from the request's header and puts it on its own scripts), the other security headers and a
// request id. And it remembers the campaign a shopper arrived by (last touch, 30 days) for the
// checkout forms to send with their intent; the URL is left as it is, so shared links with UTM
// parameters keep working. A prefetch is no arrival: it sets no cookie. (The visit itself is counted
// once the page has answered: lib/campaigns/count-visits.ts.)
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

  // Next hides its router's headers from the proxy: the HTTP server marks a router prefetch for it.
  const prefetch = request.headers.get(PREFETCH_MARK) === "1" || isPrefetch(request.headers);
  const value = prefetch ? null : attributionCookieFor(request.nextUrl.searchParams, new Date());
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

// Pages only: never the API (JSON, no CSP), static assets or covers. Every request for a page,
// whatever it is marked (Purpose, Sec-Purpose, Next-Router-Prefetch): a prefetched page is shown
// as it was fetched, so it needs its headers as much as any. Literals only: Next reads the matcher
// at build time.
export const config = {
  matcher: ["/((?!api/|_next/static/|_next/image|covers/|favicon\\.ico).*)"],
};
