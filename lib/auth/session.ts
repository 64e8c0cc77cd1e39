import "server-only";
import { getServerSession } from "next-auth";
import { cookies } from "next/headers";
import { cache } from "react";
import { getDb } from "@/lib/db/client";
import { findUserById } from "@/lib/services/users";
import { getAuthOptions } from "./options";

/** next-auth's session cookie (`__Secure-` over https), possibly split into `.0`, `.1` chunks. */
const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  /** The version this session was issued with (lib/auth/session-version.ts), checked current on this read. */
  sessionVersion: number;
}

/**
 * The signed-in shopper for this request, or null for a guest. Read from the session cookie and
 * checked against the database once per request, so a deleted account counts as signed out.
 * Works in server components, route handlers and server actions.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  // A guest carries no session cookie: nothing to decrypt, and no secret needed to say so.
  const cookieStore = await cookies();
  if (!cookieStore.getAll().some((c) => SESSION_COOKIE.test(c.name))) return null;
  const session = await getServerSession(getAuthOptions());
  const id = session?.user?.id;
  if (!id) return null;
  const user = await findUserById(getDb(), id);
  return user ? { ...user, sessionVersion: session.sessionVersion ?? 0 } : null;
});
