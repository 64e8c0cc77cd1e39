import "server-only";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { getSessionUser, type SessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { DomainError } from "@/lib/errors";
import type { Actor } from "@/lib/services/audit";
import { findStaffRole } from "@/lib/services/staff";
import { can, ROLE_PERMISSIONS, type Permission, type StaffRole } from "./permissions";

export interface Staff {
  user: SessionUser;
  role: StaffRole;
  permissions: readonly Permission[];
  /** For the audit log. */
  actor: Actor;
}

/** The signed-in staff member for this request, or null (a guest, or a shopper). Read once per request. */
export const getStaff = cache(async (): Promise<Staff | null> => {
  const user = await getSessionUser();
  if (!user) return null;
  const role = await findStaffRole(getDb(), user.id);
  if (!role) return null;
  return { user, role, permissions: ROLE_PERMISSIONS[role], actor: { userId: user.id, label: user.email } };
});

/**
 * For back-office pages: the staff member allowed `permission`. A guest is sent to sign in and back;
 * a shopper, or staff without the permission, gets the 403 page (app/forbidden.tsx), never the data.
 * Call it before anything is read, so the status is sent before the page streams.
 */
export async function requirePermission(permission: Permission | null, returnTo: string): Promise<Staff> {
  const user = await getSessionUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  const staff = await getStaff();
  if (!staff || (permission && !can(staff.role, permission))) forbidden();
  return staff;
}

/**
 * For back-office server actions and routes: the staff member allowed `permission`, or a
 * DomainError (`not_signed_in`, `permission_denied`) that the action returns as its result.
 */
export async function authorizeStaff(permission: Permission): Promise<Staff> {
  const user = await getSessionUser();
  if (!user) throw new DomainError("not_signed_in", {});
  const staff = await getStaff();
  if (!staff || !can(staff.role, permission)) throw new DomainError("permission_denied", { permission });
  return staff;
}
