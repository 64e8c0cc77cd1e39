// POST /api/storefront/token - a short-lived /api/v1 token for this browser session of the store's own pages
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { errorResponse } from "@/lib/api/errors";
import { issueStorefrontToken } from "@/lib/services/tokens";

export async function POST(request: Request): Promise<Response> {
  // Only the store's own pages may ask: a cross-site page must not mint tokens in a visitor's name.
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  const host = request.headers.get("host");
  const sameOrigin = site ? site === "same-origin" : origin !== null && host !== null && new URL(origin).host === host;
  if (!sameOrigin) return errorResponse(403, "storefront tokens are issued to the store's own pages only");
  const user = await getSessionUser();
  const issued = await issueStorefrontToken(getDb(), user?.id ?? null);
  return Response.json(
    { token: issued.token, expiresAt: issued.expiresAt.toISOString(), owner: user ? "user" : "guest" },
    { headers: { "Cache-Control": "no-store" } },
  );
}
