import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { STAFF_ROLES, can, type Permission, type StaffRole } from "@/lib/admin/permissions";
import type { Database } from "@/lib/db/client";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

// The permission table, action by action: every server action under app/admin is called as a
// guest, a shopper and each staff role. A viewer without the action's permission must get
// `permission_denied` (a guest `not_signed_in`) before the action reads its input; a viewer with
// it must get past the check (the probe input then fails validation, or the work itself runs).

const viewer = vi.hoisted(() => ({ user: null as { id: string; email: string; name: null } | null, role: null as string | null }));
vi.mock("@/lib/auth/session", () => ({ getSessionUser: async () => viewer.user }));
vi.mock("@/lib/services/staff", async (original) => ({
  ...(await original<typeof import("@/lib/services/staff")>()),
  findStaffRole: async () => viewer.role,
}));
// The probe never reaches the work, but an action that parses an empty input successfully would:
// keep its revalidation from needing a Next request.
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {}, refresh: () => {} }));

const root = path.resolve(import.meta.dirname, "../..");

function actionFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return actionFiles(full);
    return entry.name === "actions.ts" ? [full] : [];
  });
}

type Action = ((input: unknown) => Promise<{ ok: boolean; reason?: string }>) & { permission?: Permission };

const files = actionFiles(path.join(root, "app/admin"));
const modules = await Promise.all(
  files.map(async (file) => ({ file: path.relative(root, file), exports: (await import(file)) as Record<string, unknown> })),
);
const actions = modules.flatMap(({ file, exports }) =>
  Object.entries(exports).map(([name, value]) => ({ file, name, action: value as Action })),
);

// The check reads the role through the process-wide database (getDb), which the launcher provides
// in the app; without DATABASE_URL in the test's environment, give it this test's database.
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  (globalThis as unknown as { gkDb?: Database }).gkDb = t.db;
});

afterAll(async () => {
  delete (globalThis as unknown as { gkDb?: Database }).gkDb;
  await t?.close();
});

beforeEach(() => {
  viewer.user = null;
  viewer.role = null;
});

/** Something no action's schema accepts. */
const PROBE = { "not a field of any action": true };

describe("back-office server actions", () => {
  it("exist, and every one is made with adminAction (it carries its permission)", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const { file, name, action } of actions) {
      expect(typeof action, `${file} ${name}`).toBe("function");
      expect(action.permission, `${file} ${name} must be made with adminAction`).toBeTypeOf("string");
    }
  });

  it.each(actions.map((a) => ({ ...a, label: `${a.file} ${a.name}` })))("$label refuses a guest and a shopper", async ({ action }) => {
    expect(await action(PROBE)).toMatchObject({ ok: false, reason: "not_signed_in" });
    viewer.user = { id: "00000000-0000-4000-8000-000000000001", email: "shopper@example.com", name: null };
    expect(await action(PROBE)).toMatchObject({ ok: false, reason: "permission_denied" });
  });

  const table = actions.flatMap((a) =>
    STAFF_ROLES.map((role) => ({ ...a, role, allowed: can(role, a.action.permission!), label: `${a.file} ${a.name}` })),
  );
  it.each(table)("$label as $role: allowed=$allowed", async ({ action, role, allowed }) => {
    viewer.user = { id: "00000000-0000-4000-8000-000000000002", email: `${role}@example.com`, name: null };
    viewer.role = role satisfies StaffRole;
    let result: { ok: boolean; reason?: string } | undefined;
    try {
      result = await action(PROBE);
    } catch {
      // Past the check and into the work, which needs a real request: allowed.
    }
    if (allowed) expect(result?.reason).not.toBe("permission_denied");
    else expect(result).toMatchObject({ ok: false, reason: "permission_denied" });
  });
});
