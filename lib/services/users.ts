import "server-only";
import { eq, sql } from "drizzle-orm";
import { burnVerification, hashPassword, needsRehash, verifyPassword } from "@/lib/auth/password";
import type { Database } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import type { Locale } from "@/lib/i18n/config";
import type { SignInRequest, SignUpRequest } from "@/lib/schemas/account";
import { sendEmailConfirmation } from "./email-confirmation";
import { STOREFRONT_GUEST_EMAIL } from "./tokens";

export interface AccountUser {
  id: string;
  email: string;
  name: string | null;
}

const accountColumns = { id: users.id, email: users.email, name: users.name };

/**
 * A new account with a password, and the mail that confirms its address (in the account's
 * language), in one transaction. An e-mail already on file, in any letter case and whether or not
 * it has a password (owners the token CLI made have none), is refused: claiming it here without
 * proving the mailbox would hand over someone else's tokens and intents.
 */
export async function registerUser(
  db: Database,
  input: SignUpRequest,
  /** `origin` and `deferMail` as for sendEmailConfirmation (a script under the react-server condition defers). */
  options: { locale?: Locale; origin?: string; deferMail?: boolean } = {},
): Promise<{ ok: true; user: AccountUser } | { ok: false; reason: "email_taken" }> {
  // Reserved even before the first guest makes it exist: its owner holds every guest's intents.
  if (input.email.toLowerCase() === STOREFRONT_GUEST_EMAIL) return { ok: false, reason: "email_taken" };
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // The unique index on lower(email) decides races between two sign-ups of one address.
    const [row] = await tx
      .insert(users)
      .values({ email: input.email, passwordHash, locale: options.locale })
      .onConflictDoNothing()
      .returning(accountColumns);
    if (!row) return { ok: false, reason: "email_taken" } as const;
    await sendEmailConfirmation(tx, row.id, { origin: options.origin, deferMail: options.deferMail });
    return { ok: true, user: row } as const;
  });
}

/** Whether the account has confirmed its address (lib/services/email-confirmation.ts). */
export async function isEmailConfirmed(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ at: users.emailConfirmedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return Boolean(row?.at);
}

/** The account these credentials open, or null; both failures take the same time. */
export async function verifyUserCredentials(db: Database, input: SignInRequest): Promise<AccountUser | null> {
  const [row] = await db
    .select({ ...accountColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${input.email})`)
    .limit(1);
  if (!row?.passwordHash) {
    await burnVerification(input.password);
    return null;
  }
  if (!(await verifyPassword(input.password, row.passwordHash))) return null;
  if (needsRehash(row.passwordHash)) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(users.id, row.id));
  }
  return { id: row.id, email: row.email, name: row.name };
}

export async function findUserById(db: Database, id: string): Promise<AccountUser | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await db.select(accountColumns).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** The account's session version (see users.sessionVersion), or null when the account is gone. */
export async function getSessionVersion(db: Database, userId: string): Promise<number | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) return null;
  const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.version ?? null;
}

/** Ends every session of the account issued so far (sign-out, password change). */
export async function endSessions(db: Database, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
}

/**
 * Sets a new password (the caller has checked the current one) and ends every session issued
 * before, in one statement: a session stolen with the old password does not outlive it.
 */
export async function changePassword(db: Database, userId: string, newPassword: string): Promise<void> {
  const passwordHash = await hashPassword(newPassword);
  await db
    .update(users)
    .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
}
