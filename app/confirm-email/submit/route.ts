// POST /confirm-email/submit - the confirmation page's button; a 303 to the page with the outcome
import { clientAddressOf, withRequestContext } from "@/lib/api/request-context";
import { getDb } from "@/lib/db/client";
import { POLICIES, hitRateLimit, rateLimitsEnabled } from "@/lib/services/rate-limits";
import { confirmEmail } from "@/lib/services/email-confirmation";

const MAX_FORM_BYTES = 4096;

export const POST = withRequestContext(async (request: Request) => {
  const db = getDb();
  // Counted like the other forms' posts from an address; a link's proof is not guessable anyway.
  if (rateLimitsEnabled() && !(await hitRateLimit(db, `ip:${clientAddressOf(request.headers)}`, POLICIES.ip)).allowed) {
    return new Response("too many requests from this address; try again in a minute", { status: 429, headers: { "Retry-After": "60" } });
  }
  const outcome = await confirmEmail(db, await readToken(request));
  // 303: the browser follows with a GET, and a reload of the outcome never posts the form again.
  return new Response(null, { status: 303, headers: { Location: `/confirm-email?result=${outcome.state}`, "Cache-Control": "no-store" } });
});

async function readToken(request: Request): Promise<string | null> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return null;
  const text = await request.text();
  if (text.length > MAX_FORM_BYTES) return null;
  return new URLSearchParams(text).get("token");
}
