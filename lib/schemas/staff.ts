import { z } from "zod";
import { STAFF_ROLES } from "@/lib/admin/permissions";
import "./zod-config";

/** Giving a staff role, from /admin/staff (the CLI checks the same two fields). */
export const staffGrantRequestSchema = z.strictObject({
  email: z.email({ error: "email must be an e-mail address" }).max(254, { error: "email must be at most 254 characters" }),
  role: z.enum(STAFF_ROLES, { error: `role must be one of ${STAFF_ROLES.join(", ")}` }),
});
export type StaffGrantRequest = z.infer<typeof staffGrantRequestSchema>;

export const staffRevokeRequestSchema = staffGrantRequestSchema.pick({ email: true });
