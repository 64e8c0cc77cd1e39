import "server-only";

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

/**
 * The signed-in shopper for this request, or null for a guest.
 * TODO(accounts): blocked on next-auth being wired in; returns null until then.
 */
export async function getSessionUser(): Promise<SessionUser | null> {
  return null;
}
