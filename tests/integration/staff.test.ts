import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDomainError } from "@/lib/errors";
import { CLI_ACTOR, listAudit, recordAudit, type Actor } from "@/lib/services/audit";
import { findStaffRole, grantStaffRole, listStaff, revokeStaffRole } from "@/lib/services/staff";
import { verifyUserCredentials } from "@/lib/services/users";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

const unique = () => Math.random().toString(36).slice(2, 8);

describe("staff roles", () => {
  it("grant makes a missing account with a password that signs in, and records who did it", async () => {
    const email = `first-admin-${unique()}@example.com`;
    const granted = await grantStaffRole(t.db, CLI_ACTOR, email, "admin");
    expect(granted.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await verifyUserCredentials(t.db, { email, password: granted.generatedPassword! })).toMatchObject({ email });
    expect(await findStaffRole(t.db, granted.userId)).toBe("admin");

    const { entries } = await listAudit(t.db, { targetId: granted.userId });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: "cli",
      actorId: null,
      action: "staff.grant",
      before: null,
      after: { email, role: "admin", accountCreated: true },
    });
  });

  it("grant to an existing account keeps its password and records the role it had", async () => {
    const admin: Actor = { userId: null, label: "boss@example.com" };
    const email = `support-${unique()}@example.com`;
    const first = await grantStaffRole(t.db, admin, email, "support");
    const second = await grantStaffRole(t.db, admin, email.toUpperCase(), "operator");
    expect(second).toMatchObject({ userId: first.userId, role: "operator", previousRole: "support", generatedPassword: null });
    const { entries } = await listAudit(t.db, { targetId: first.userId });
    expect(entries[0]).toMatchObject({ actor: "boss@example.com", before: { role: "support" }, after: { role: "operator" } });
    expect((await listStaff(t.db)).find((s) => s.userId === first.userId)?.role).toBe("operator");
  });

  it("the last admin keeps the role; with two admins, two concurrent revocations leave one", async () => {
    const db = await createTestDatabase();
    try {
      const a = `a-${unique()}@example.com`;
      const b = `b-${unique()}@example.com`;
      await grantStaffRole(db.db, CLI_ACTOR, a, "admin");
      await expect(revokeStaffRole(db.db, CLI_ACTOR, a)).rejects.toSatisfy((e) => isDomainError(e, "last_admin"));
      await expect(grantStaffRole(db.db, CLI_ACTOR, a, "support")).rejects.toSatisfy((e) => isDomainError(e, "last_admin"));

      await grantStaffRole(db.db, CLI_ACTOR, b, "admin");
      const results = await Promise.allSettled([
        revokeStaffRole(db.db, { userId: null, label: b }, a),
        revokeStaffRole(db.db, { userId: null, label: a }, b),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(isDomainError(refused.reason, "last_admin")).toBe(true);
      expect((await listStaff(db.db)).filter((s) => s.role === "admin")).toHaveLength(1);
    } finally {
      await db.close();
    }
  });

  it("revoking someone without a role changes nothing and records nothing", async () => {
    const before = (await listAudit(t.db, { limit: 200 })).entries.length;
    expect(await revokeStaffRole(t.db, CLI_ACTOR, `nobody-${unique()}@example.com`)).toBeNull();
    expect((await listAudit(t.db, { limit: 200 })).entries.length).toBe(before);
  });
});

describe("the audit log", () => {
  it("is append-only in the database: an entry cannot be edited or deleted", async () => {
    await recordAudit(t.db, CLI_ACTOR, { action: "gear.stock", targetType: "gear_item", targetId: "append-only", after: { stock: 1 } });
    await expect(t.db.execute(sql`UPDATE audit_log SET after = '{"stock":2}' WHERE target_id = 'append-only'`)).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/never edited/) },
    });
    await expect(t.db.execute(sql`DELETE FROM audit_log WHERE target_id = 'append-only'`)).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/never deleted/) },
    });
  });

  it("filters by actor, action area and time, newest first, paged by id", async () => {
    const actor: Actor = { userId: null, label: `pager-${unique()}@example.com` };
    for (let i = 0; i < 5; i++) await recordAudit(t.db, actor, { action: "promo_code.update", targetType: "promo_code", targetId: i });
    const first = await listAudit(t.db, { actor: actor.label.toUpperCase(), action: "promo_code", limit: 2 });
    expect(first.entries.map((e) => e.targetId)).toEqual(["4", "3"]);
    const second = await listAudit(t.db, { actor: actor.label, action: "promo_code.update", limit: 2, before: first.nextBefore! });
    expect(second.entries.map((e) => e.targetId)).toEqual(["2", "1"]);
    expect((await listAudit(t.db, { actor: actor.label, from: new Date(Date.now() + 60_000) })).entries).toEqual([]);
  });
});
