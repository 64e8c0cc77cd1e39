import { NextResponse, type NextRequest } from "next/server";
import { ATTRIBUTION_COOKIE, ATTRIBUTION_MAX_AGE_SECONDS, attributionCookieFor } from "@/lib/attribution";

// Remembers the campaign a shopper arrived by (last touch, 30 days) for the checkout forms to send
// with their intent. The URL is left as it is, so shared links with UTM parameters keep working.
export function proxy(request: NextRequest) {
  const response = NextResponse.next();
  const value = attributionCookieFor(request.nextUrl.searchParams, new Date());
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

// Page requests with a campaign only: never the API, assets or a router prefetch (a prefetched
// link is not a visit). Literals only: Next reads the matcher at build time.
export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/|covers/|favicon\\.ico).*)",
      has: [{ type: "query", key: "utm_source" }],
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
    {
      source: "/((?!api/|_next/|covers/|favicon\\.ico).*)",
      has: [{ type: "query", key: "utm_medium" }],
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
