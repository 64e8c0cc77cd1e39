import "server-only";
import type { Database } from "@/lib/db/client";
import { getSessionVersion } from "@/lib/services/users";

/** What the jwt callback throws for a session that has been ended: next-auth then clears its cookie. */
export const SESSION_ENDED = "SessionEnded";

/**
 * Whether a session (JWT) issued with `version` is still current for its account. A token from
 * before session versions has none and counts as version 0, so it ends with the first sign-out or
 * password change like any other.
 */
export async function sessionIsCurrent(db: Database, userId: string | undefined, version: number | undefined): Promise<boolean> {
  if (!userId) return false;
  const current = await getSessionVersion(db, userId);
  return current !== null && current === (version ?? 0);
}
