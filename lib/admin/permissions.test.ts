import { describe, expect, it } from "vitest";
import { EXPECTED_PAGES, EXPECTED_ROLES } from "@/tests/support/admin-permissions";
import { ADMIN_SECTIONS, can, PERMISSIONS, ROLE_PERMISSIONS, STAFF_ROLES } from "./permissions";

// The permission table against the one written out by hand from the issue (tests/support/admin-permissions.ts).

describe("the permission table", () => {
  it("names exactly the permissions the hand-written table names", () => {
    expect([...PERMISSIONS].sort()).toEqual(Object.keys(EXPECTED_ROLES).sort());
  });

  const cells = STAFF_ROLES.flatMap((role) =>
    PERMISSIONS.map((permission) => ({ role, permission, allowed: EXPECTED_ROLES[permission].includes(role) })),
  );
  it.each(cells)("$role × $permission: $allowed", ({ role, permission, allowed }) => {
    expect(can(role, permission)).toBe(allowed);
    expect(ROLE_PERMISSIONS[role].includes(permission)).toBe(allowed);
  });

  it("gives nobody anything without a role", () => {
    for (const permission of PERMISSIONS) {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
    }
  });

  it("shows each role the sections the hand-written table opens to it", () => {
    for (const section of ADMIN_SECTIONS) {
      const page = EXPECTED_PAGES.find((p) => p.path === section.path);
      expect(page, section.path).toBeDefined();
      for (const role of STAFF_ROLES) expect(can(role, section.permission), `${role} ${section.path}`).toBe(page!.roles.includes(role));
    }
  });
});
