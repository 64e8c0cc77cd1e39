import "server-only";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { StaffRole } from "@/lib/admin/permissions";
import { hashPassword } from "@/lib/auth/password";
import type { Database, Transaction } from "@/lib/db/client";
import { staffMembers, users } from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import { recordAudit, type Actor } from "./audit";
import { sendEmailConfirmation } from "./email-confirmation";
import { STOREFRONT_GUEST_EMAIL } from "./tokens";

export interface StaffMember {
  userId: string;
  email: string;
  role: StaffRole;
  grantedAt: Date;
  grantedBy: string;
  /** The account has confirmed its address: until then the role is granted but waits. */
  confirmed: boolean;
}

/** A role counts only on an account that proved its address (see email-confirmation.ts). */
const roleInEffect = sql`${users.emailConfirmedAt} IS NOT NULL`;

/**
 * The staff role this account may use now, or null: a shopper, or a role that waits for the
 * account to confirm its address (it may have been registered by someone else before the grant).
 * Read on every back-office request; every permission check goes through it.
 */
export async function findStaffRole(db: Database, userId: string): Promise<StaffRole | null> {
  const [row] = await db
    .select({ role: staffMembers.role })
    .from(staffMembers)
    .innerJoin(users, eq(users.id, staffMembers.userId))
    .where(and(eq(staffMembers.userId, userId), roleInEffect))
    .limit(1);
  return row?.role ?? null;
}

export async function listStaff(db: Database): Promise<StaffMember[]> {
  return db
    .select({
      userId: staffMembers.userId,
      email: users.email,
      role: staffMembers.role,
      grantedAt: staffMembers.grantedAt,
      grantedBy: staffMembers.grantedBy,
      confirmed: sql<boolean>`${roleInEffect}`,
    })
    .from(staffMembers)
    .innerJoin(users, eq(users.id, staffMembers.userId))
    .orderBy(staffMembers.role, users.email);
}

export interface GrantResult {
  userId: string;
  email: string;
  role: StaffRole;
  previousRole: StaffRole | null;
  /** Set only when the account was made by this grant: shown once, to be changed on the account page. */
  generatedPassword: string | null;
  /**
   * False when the account existed unconfirmed: the role waits until its owner confirms the
   * address, and the grant (re)sent the confirmation mail. An account the grant made counts as
   * confirmed: it did not exist, so nobody registered it first, and its password goes to the operator.
   */
  inEffect: boolean;
}

/** 18 random bytes in base64url: 24 characters, well past the sign-up rules. */
function generatePassword(): string {
  return crypto.randomBytes(18).toString("base64url");
}

/**
 * Gives an account a staff role (replacing the one it had). When no account has the e-mail, one is
 * made with a generated password, returned once. Taking the last admin's role away is refused, so the
 * store never locks itself out of its own back office.
 */
export async function grantStaffRole(
  db: Database,
  actor: Actor,
  email: string,
  role: StaffRole,
  /** For the confirmation mail an unconfirmed account gets (see sendEmailConfirmation). */
  options: { origin?: string; deferMail?: boolean } = {},
): Promise<GrantResult> {
  const address = email.trim();
  if (address.toLowerCase() === STOREFRONT_GUEST_EMAIL)
    throw new DomainError("invalid_field", { message: "that address is reserved" }, "email");
  // Hashing is slow: do it before the transaction, and only if the account may not exist.
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${address})`)
    .limit(1);
  const generatedPassword = existing ? null : generatePassword();
  const passwordHash = generatedPassword ? await hashPassword(generatedPassword) : null;

  return db.transaction(async (tx) => {
    await lockStaff(tx);
    await tx
      .insert(users)
      .values({ email: address, passwordHash, emailConfirmedAt: generatedPassword ? sql`now()` : null })
      .onConflictDoNothing();
    const [user] = await tx
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, confirmedAt: users.emailConfirmedAt })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${address})`)
      .limit(1);
    if (!user) throw new Error(`could not create the account ${address}`);
    // A concurrent grant may have made the account first: then the password we generated is not its.
    const madeHere = generatedPassword !== null && user.passwordHash === passwordHash;
    const [before] = await tx.select().from(staffMembers).where(eq(staffMembers.userId, user.id));
    if (before?.role === "admin" && role !== "admin") await assertAnotherAdmin(tx, user.id);
    const inEffect = user.confirmedAt !== null;
    if (!inEffect) await sendEmailConfirmation(tx, user.id, options);
    await tx
      .insert(staffMembers)
      .values({ userId: user.id, role, grantedBy: actor.label })
      .onConflictDoUpdate({ target: staffMembers.userId, set: { role, grantedAt: sql`now()`, grantedBy: actor.label } });
    await recordAudit(tx, actor, {
      action: "staff.grant",
      targetType: "user",
      targetId: user.id,
      before: before ? { email: user.email, role: before.role } : null,
      after: { email: user.email, role, accountCreated: madeHere, ...(inEffect ? {} : { waitsForConfirmation: true }) },
    });
    return {
      userId: user.id,
      email: user.email,
      role,
      previousRole: before?.role ?? null,
      generatedPassword: madeHere ? generatedPassword : null,
      inEffect,
    };
  });
}

/** Takes the staff role away; the account stays, as a shopper's. Returns the role it had, or null. */
export async function revokeStaffRole(db: Database, actor: Actor, email: string): Promise<StaffRole | null> {
  return db.transaction(async (tx) => {
    await lockStaff(tx);
    const [row] = await tx
      .select({ userId: staffMembers.userId, role: staffMembers.role, email: users.email })
      .from(staffMembers)
      .innerJoin(users, eq(users.id, staffMembers.userId))
      .where(sql`lower(${users.email}) = lower(${email.trim()})`);
    if (!row) return null;
    if (row.role === "admin") await assertAnotherAdmin(tx, row.userId);
    await tx.delete(staffMembers).where(eq(staffMembers.userId, row.userId));
    await recordAudit(tx, actor, {
      action: "staff.revoke",
      targetType: "user",
      targetId: row.userId,
      before: { email: row.email, role: row.role },
      after: null,
    });
    return row.role;
  });
}

/**
 * Refuses when no admin but `userId` would remain; called under lockStaff. An admin whose role
 * waits for a confirmation does not count: the store could be left with nobody able to sign in as admin.
 */
async function assertAnotherAdmin(tx: Transaction, userId: string): Promise<void> {
  const others = await tx
    .select({ userId: staffMembers.userId })
    .from(staffMembers)
    .innerJoin(users, eq(users.id, staffMembers.userId))
    .where(and(sql`${staffMembers.role} = 'admin' AND ${staffMembers.userId} <> ${userId}`, roleInEffect));
  if (others.length === 0) throw new DomainError("last_admin", {});
}

/**
 * Staff changes are rare: one at a time, so two admins taking each other's role at once cannot
 * both pass the last-admin check (and cannot deadlock on each other's rows).
 */
async function lockStaff(tx: Transaction): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('giftkey:staff_members'))`);
}
