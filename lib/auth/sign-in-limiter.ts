import "server-only";
import type { Database } from "@/lib/db/client";
import { POLICIES, clearRateLimit, emailKey, hitRateLimits, peekRateLimits, rateLimitsEnabled, recordRateLimited } from "@/lib/services/rate-limits";

/**
 * Password guessing, limited in the database so it holds across instances: after
 * RATE_LIMIT_SIGNIN failed sign-ins from one address, or for one e-mail address from anywhere,
 * within RATE_LIMIT_STRICT_WINDOW_SECONDS (10 per 15 minutes by default), further tries wait out
 * the window. Only failures count, so people behind one address who sign in correctly are never
 * held up; a correct password clears its e-mail's count.
 */
export async function signInBlocked(db: Database, email: string, address: string): Promise<boolean> {
  if (!rateLimitsEnabled()) return false;
  const used = await peekRateLimits(db, keys(email, address), POLICIES.signin);
  if (!used.allowed) recordRateLimited(used);
  return !used.allowed;
}

export async function recordSignInFailure(db: Database, email: string, address: string): Promise<void> {
  if (rateLimitsEnabled()) await hitRateLimits(db, keys(email, address), POLICIES.signin);
}

export async function clearSignInFailures(db: Database, email: string): Promise<void> {
  if (rateLimitsEnabled()) await clearRateLimit(db, emailKey(email));
}

const keys = (email: string, address: string) => [`signin:${address}`, emailKey(email)];
