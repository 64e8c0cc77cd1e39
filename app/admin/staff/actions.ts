"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { adminAction } from "@/lib/admin/action";
import { getDb } from "@/lib/db/client";
import { originFromHeaders } from "@/lib/http/public-origin";
import { staffGrantRequestSchema, staffRevokeRequestSchema } from "@/lib/schemas/staff";
import { grantStaffRole, revokeStaffRole } from "@/lib/services/staff";

export const grantStaffAction = adminAction("staff:manage", staffGrantRequestSchema, async ({ email, role }, staff) => {
  const granted = await grantStaffRole(getDb(), staff.actor, email, role, { origin: originFromHeaders(await headers()) });
  revalidatePath("/admin/staff");
  return { email: granted.email, role: granted.role, generatedPassword: granted.generatedPassword, inEffect: granted.inEffect };
});

export const revokeStaffAction = adminAction("staff:manage", staffRevokeRequestSchema, async ({ email }, staff) => {
  const role = await revokeStaffRole(getDb(), staff.actor, email);
  revalidatePath("/admin/staff");
  return { email, role };
});
