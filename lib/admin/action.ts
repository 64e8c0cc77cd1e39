import "server-only";
import type { z } from "zod";
import { isDomainError, type Reason } from "@/lib/errors";
import type { Permission } from "./permissions";
import { authorizeStaff, type Staff } from "./session";

/** What every back-office action answers: its result, or a catalogued reason the page shows in its language. */
export type AdminActionResult<T extends object = object> =
  ({ ok: true } & T) | { ok: false; reason: Reason; param?: string; details?: Record<string, unknown> };

export type AdminAction<I, T extends object> = ((input: I) => Promise<AdminActionResult<T>>) & { permission: Permission };

/**
 * A back-office server action: the viewer's permission is checked on the server first (before the
 * input is even read), then the input is parsed with `schema`, then `run` does the work with the
 * staff member as the audit log's actor. A DomainError becomes `{ ok: false, reason }`; anything
 * else is a bug and is thrown (Next logs it and the form shows its generic failure).
 *
 * Every action under app/admin is made with this; the permission table test calls each one as
 * every role.
 */
export function adminAction<S extends z.ZodType, T extends object>(
  permission: Permission,
  schema: S,
  run: (input: z.output<S>, staff: Staff) => Promise<T>,
): AdminAction<z.input<S>, T> {
  const action = async (input: z.input<S>): Promise<AdminActionResult<T>> => {
    try {
      const staff = await authorizeStaff(permission);
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return { ok: false, reason: "invalid_field", param: issue?.path.join("."), details: { message: issue?.message ?? "invalid" } };
      }
      return { ok: true, ...(await run(parsed.data, staff)) };
    } catch (err) {
      if (isDomainError(err)) return { ok: false, reason: err.reason, param: err.param, details: err.details as Record<string, unknown> };
      throw err;
    }
  };
  return Object.assign(action, { permission });
}
