import "server-only";
import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { StaffRole } from "@/lib/admin/permissions";
import { hashPassword } from "@/lib/auth/password";
import type { Database, Transaction } from "@/lib/db/client";
import { staffMembers, users } from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import { recordAudit, type Actor } from "./audit";
import { STOREFRONT_GUEST_EMAIL } from "./tokens";

export interface StaffMember {
  userId: string;
  email: string;
  role: StaffRole;
  grantedAt: Date;
  grantedBy: string;
}

/** The staff role of this account, or null for a shopper. Read on every back-office request. */
export async function findStaffRole(db: Database, userId: string): Promise<StaffRole | null> {
  const [row] = await db.select({ role: staffMembers.role }).from(staffMembers).where(eq(staffMembers.userId, userId)).limit(1);
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
export async function grantStaffRole(db: Database, actor: Actor, email: string, role: StaffRole): Promise<GrantResult> {
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
    await tx.insert(users).values({ email: address, passwordHash }).onConflictDoNothing();
    const [user] = await tx
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${address})`)
      .limit(1);
    if (!user) throw new Error(`could not create the account ${address}`);
    // A concurrent grant may have made the account first: then the password we generated is not its.
    const madeHere = generatedPassword !== null && user.passwordHash === passwordHash;
    const [before] = await tx.select().from(staffMembers).where(eq(staffMembers.userId, user.id));
    if (before?.role === "admin" && role !== "admin") await assertAnotherAdmin(tx, user.id);
    await tx
      .insert(staffMembers)
      .values({ userId: user.id, role, grantedBy: actor.label })
      .onConflictDoUpdate({ target: staffMembers.userId, set: { role, grantedAt: sql`now()`, grantedBy: actor.label } });
    await recordAudit(tx, actor, {
      action: "staff.grant",
      targetType: "user",
      targetId: user.id,
      before: before ? { email: user.email, role: before.role } : null,
      after: { email: user.email, role, accountCreated: madeHere },
    });
    return {
      userId: user.id,
      email: user.email,
      role,
      previousRole: before?.role ?? null,
      generatedPassword: madeHere ? generatedPassword : null,
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

/** Refuses when no admin but `userId` would remain; called under lockStaff. */
async function assertAnotherAdmin(tx: Transaction, userId: string): Promise<void> {
  const others = await tx
    .select({ userId: staffMembers.userId })
    .from(staffMembers)
    .where(sql`${staffMembers.role} = 'admin' AND ${staffMembers.userId} <> ${userId}`);
  if (others.length === 0) throw new DomainError("last_admin", {});
}

/**
 * Staff changes are rare: one at a time, so two admins taking each other's role at once cannot
 * both pass the last-admin check (and cannot deadlock on each other's rows).
 */
async function lockStaff(tx: Transaction): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('giftkey:staff_members'))`);
}
