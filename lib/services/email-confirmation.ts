import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { confirmationIdOf, storedConfirmationUrl } from "@/lib/auth/confirmation-link";
import type { Database, Transaction } from "@/lib/db/client";
import { emailConfirmations, users } from "@/lib/db/schema";
import { configuredOrigin } from "@/lib/http/public-origin";
import type { Locale } from "@/lib/i18n/config";
import { enqueueAccountMail } from "@/lib/mail/outbox";
import { renderConfirmationMail } from "@/lib/mail/render";
import { POLICIES, hitRateLimit, rateLimitsEnabled, recordRateLimited, type RateLimitResult } from "./rate-limits";

// An account proves its address by the link sent to it. Until then the account works as a shopper's,
// but a staff role on it counts as no role (lib/services/staff.ts) and the guest orders placed with
// the address stay hidden (lib/services/account.ts): someone who signed up with a colleague's
// address first gets neither.

/** How long a confirmation link works. */
export const CONFIRMATION_TTL_HOURS = 48;

export interface SendOptions {
  /** The store's public origin for the link: the request's, else the configured one. */
  origin?: string;
  now?: Date;
  /**
   * Record the confirmation and leave its mail to the worker (`writePendingConfirmationMails`):
   * for callers that cannot render React Email, such as the staff CLI under the react-server condition.
   */
  deferMail?: boolean;
}

/**
 * Records a new confirmation for the account's current address and writes its mail into the
 * outbox, in the caller's transaction (the sign-up's, the grant's): the mail exists exactly when
 * that commits (or, deferred, the worker's next pass writes it; only the worker sends mail anyway).
 */
export async function sendEmailConfirmation(tx: Transaction, userId: string, options: SendOptions = {}): Promise<string> {
  const now = options.now ?? new Date();
  const [user] = await tx.select({ email: users.email, locale: users.locale }).from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`no account ${userId} to confirm`);
  const [row] = await tx
    .insert(emailConfirmations)
    .values({
      userId,
      email: user.email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CONFIRMATION_TTL_HOURS * 3600_000),
      mailPending: options.deferMail ?? false,
    })
    .returning({ id: emailConfirmations.id });
  if (!options.deferMail) await writeConfirmationMail(tx, { id: row!.id, userId, ...user }, options.origin ?? configuredOrigin());
  return row!.id;
}

async function writeConfirmationMail(
  tx: Transaction,
  confirmation: { id: string; userId: string; email: string; locale: Locale },
  origin: string,
): Promise<void> {
  const url = storedConfirmationUrl(origin, confirmation.id);
  const { email, locale } = confirmation;
  const rendered = await renderConfirmationMail({ locale, email, url, hours: CONFIRMATION_TTL_HOURS });
  await enqueueAccountMail(tx, { userId: confirmation.userId, kind: "email_confirmation", recipient: email, locale, rendered });
}

/**
 * The worker's part of a deferred confirmation: writes the mail of up to `limit` confirmations
 * recorded without one (still usable), in one transaction with their rows, claimed with SKIP
 * LOCKED so two workers never write one twice. Returns how many.
 */
export async function writePendingConfirmationMails(db: Database, { limit, origin }: { limit: number; origin: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const pending = await tx
      .select({ id: emailConfirmations.id, userId: emailConfirmations.userId, email: emailConfirmations.email, locale: users.locale })
      .from(emailConfirmations)
      .innerJoin(users, eq(users.id, emailConfirmations.userId))
      .where(
        and(
          eq(emailConfirmations.mailPending, true),
          sql`${emailConfirmations.usedAt} IS NULL AND ${emailConfirmations.expiresAt} > now()`,
        ),
      )
      .orderBy(emailConfirmations.createdAt)
      .limit(limit)
      .for("update", { of: emailConfirmations, skipLocked: true });
    for (const confirmation of pending) {
      await writeConfirmationMail(tx, confirmation, origin);
      await tx.update(emailConfirmations).set({ mailPending: false }).where(eq(emailConfirmations.id, confirmation.id));
    }
    return pending.length;
  });
}

export type ResendResult = { ok: true; sent: boolean } | { ok: false; reason: "rate_limited"; limit: RateLimitResult };

/**
 * The account page's "send again": a new link, unless the address is confirmed already (then
 * nothing is sent). Each request is counted against the account before anything is looked at, in
 * one statement, so a burst never sends more than the limit.
 */
export async function resendEmailConfirmation(db: Database, userId: string, origin?: string): Promise<ResendResult> {
  if (rateLimitsEnabled()) {
    const limit = await hitRateLimit(db, `confirmation-mail:${userId}`, POLICIES.confirmationMail);
    if (!limit.allowed) {
      recordRateLimited(limit);
      return { ok: false, reason: "rate_limited", limit };
    }
  }
  return db.transaction(async (tx) => {
    // Locked, so a confirmation that commits meanwhile is seen, and no mail goes to a confirmed address.
    const [user] = await tx.select({ confirmedAt: users.emailConfirmedAt }).from(users).where(eq(users.id, userId)).for("update");
    if (!user || user.confirmedAt) return { ok: true, sent: false };
    await sendEmailConfirmation(tx, userId, { origin });
    return { ok: true, sent: true };
  });
}

export type ConfirmationState =
  /** The link is good: the page offers the button (confirming is a POST, so link scanners never confirm). */
  | { state: "ready"; email: string }
  | { state: "confirmed"; email: string }
  | { state: "already_confirmed"; email: string }
  | { state: "expired"; email: string }
  /** Forged, altered, unknown, or for an address the account no longer has. */
  | { state: "invalid" };

/** What a link would do, without doing it: for the page that shows the button. */
export async function inspectEmailConfirmation(db: Database, token: unknown, now = new Date()): Promise<ConfirmationState> {
  const found = await findConfirmation(db, token);
  if (!found) return { state: "invalid" };
  if (found.accountConfirmed) return { state: "already_confirmed", email: found.email };
  if (found.usedAt) return { state: "invalid" };
  if (found.expiresAt <= now) return { state: "expired", email: found.email };
  return { state: "ready", email: found.email };
}

/**
 * Confirms the address a link was sent to: once, before it expires, and only while the account
 * still has that address. Clicking again says "already confirmed"; an expired link says so (the
 * account page sends a new one). The link is used up and the account confirmed in one transaction,
 * with the link's row locked, so two clicks at once confirm once.
 */
export async function confirmEmail(db: Database, token: unknown, now = new Date()): Promise<ConfirmationState> {
  const id = confirmationIdOf(token);
  if (!id) return { state: "invalid" };
  return db.transaction(async (tx) => {
    const found = await findConfirmation(tx, token, true);
    if (!found) return { state: "invalid" };
    if (found.accountConfirmed) return { state: "already_confirmed", email: found.email };
    if (found.usedAt) return { state: "invalid" };
    if (found.expiresAt <= now) return { state: "expired", email: found.email };
    await tx.update(emailConfirmations).set({ usedAt: now }).where(eq(emailConfirmations.id, id));
    const confirmed = await tx
      .update(users)
      .set({ emailConfirmedAt: now })
      .where(and(eq(users.id, found.userId), sql`lower(${users.email}) = lower(${found.email})`, sql`${users.emailConfirmedAt} IS NULL`))
      .returning({ id: users.id });
    return confirmed.length > 0 ? { state: "confirmed", email: found.email } : { state: "already_confirmed", email: found.email };
  });
}

async function findConfirmation(db: Database | Transaction, token: unknown, lock = false) {
  const id = confirmationIdOf(token);
  if (!id) return null;
  const query = db
    .select({
      userId: emailConfirmations.userId,
      email: emailConfirmations.email,
      expiresAt: emailConfirmations.expiresAt,
      usedAt: emailConfirmations.usedAt,
      accountEmail: users.email,
      accountConfirmed: sql<boolean>`${users.emailConfirmedAt} IS NOT NULL`,
    })
    .from(emailConfirmations)
    .innerJoin(users, eq(users.id, emailConfirmations.userId))
    .where(eq(emailConfirmations.id, id));
  const [row] = lock ? await query.for("update") : await query;
  // A link for an address the account no longer has confirms nothing, and says nothing of the new one.
  if (!row || row.accountEmail.toLowerCase() !== row.email.toLowerCase()) return null;
  return row;
}
