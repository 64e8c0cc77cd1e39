import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, createPool } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { appRoleFor, ensureAppRole } from "@/lib/db/roles";
import { setGameHidden } from "@/lib/services/admin-catalog";
import { recordAudit } from "@/lib/services/audit";
import { ensureUser } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "../support/db";

// The app's database role (lib/db/roles.ts): what the running app may do, and what the audit log
// refuses to anyone. The owner (this test's own connection, as migrations have) made every table.

let t: TestDatabase;
let appUrl: string;

beforeAll(async () => {
  t = await createTestDatabase();
  appUrl = await t.appUrl();
});

afterAll(() => t?.close());

async function as<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: { code?: string; message?: string }) => ({ code: err.code, message: err.message }),
  );

async function auditEntries(): Promise<number> {
  const { rows } = await t.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log");
  return rows[0]!.n;
}

describe("the audit log", () => {
  beforeAll(async () => {
    const userId = await ensureUser(t.db, "role-audit@example.com");
    await recordAudit(
      t.db,
      { userId, label: "role-audit@example.com" },
      { action: "staff.grant", targetType: "user", targetId: userId, after: { role: "admin" } },
    );
  });

  it("refuses TRUNCATE as the owner (a trigger), and keeps every entry", async () => {
    const before = await auditEntries();
    expect(before).toBeGreaterThan(0);
    expect(await failure(t.pool.query("TRUNCATE audit_log"))).toEqual({ code: "23000", message: expect.stringContaining("audit_log") });
    expect(await failure(t.pool.query("TRUNCATE audit_log CASCADE"))).toMatchObject({ code: "23000" });
    expect(await auditEntries()).toBe(before);
  });

  it.each([
    ["TRUNCATE", "TRUNCATE audit_log"],
    ["UPDATE", "UPDATE audit_log SET note = 'changed'"],
    ["DELETE", "DELETE FROM audit_log"],
  ])("refuses %s as the app's role (no privilege)", async (_verb, statement) => {
    const before = await auditEntries();
    expect(await as(appUrl, (c) => failure(c.query(statement)))).toMatchObject({ code: "42501" });
    expect(await auditEntries()).toBe(before);
  });

  it("takes new entries from the app's role, and lets it read them", async () => {
    const pool = createPool(appUrl, 2);
    try {
      const db = createDb(pool);
      const before = await auditEntries();
      const userId = await ensureUser(db, "role-audit-2@example.com");
      await recordAudit(
        db,
        { userId, label: "x" },
        { action: "staff.grant", targetType: "user", targetId: userId, after: { role: "support" } },
      );
      expect(await auditEntries()).toBe(before + 1);
      expect((await pool.query("SELECT count(*)::int AS n FROM audit_log")).rows[0].n).toBe(before + 1);
    } finally {
      await pool.end();
    }
  });
});

describe("the app's role", () => {
  it("is no superuser and owns nothing, and may not create tables", async () => {
    const role = appRoleFor(new URL(t.url).pathname.slice(1));
    const { rows } = await t.pool.query(
      `SELECT rolsuper, rolcreatedb, rolcreaterole, (SELECT count(*)::int FROM pg_shdepend WHERE refobjid = r.oid AND deptype = 'o') AS owned
       FROM pg_roles r WHERE rolname = $1`,
      [role],
    );
    expect(rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false, owned: 0 }]);
    expect(await as(appUrl, (c) => failure(c.query("CREATE TABLE intruder (id int)")))).toMatchObject({ code: "42501" });
  });

  it("does what the back office does at run time: hiding a game refreshes the catalog's materialized views", async () => {
    const pool = createPool(appUrl, 2);
    try {
      const db = createDb(pool);
      const userId = await ensureUser(db, "role-catalog@example.com");
      await setGameHidden(db, { userId, label: "role-catalog@example.com" }, 620, true);
      const { rows } = await t.pool.query("SELECT hidden FROM games WHERE app_id = 620");
      expect(rows).toEqual([{ hidden: true }]);
      await setGameHidden(db, { userId, label: "role-catalog@example.com" }, 620, false);
    } finally {
      await pool.end();
    }
  });

  it("gets its privileges on a table a later migration makes, when the migrations run again", async () => {
    await t.pool.query("CREATE TABLE later_feature (id serial PRIMARY KEY, note text)");
    expect(await as(appUrl, (c) => failure(c.query("INSERT INTO later_feature (note) VALUES ('x')")))).toMatchObject({ code: "42501" });
    await migrateDatabase(t.url, { appUrl });
    await as(appUrl, async (c) => {
      await c.query("INSERT INTO later_feature (note) VALUES ('x')");
      expect((await c.query("SELECT note FROM later_feature")).rows).toEqual([{ note: "x" }]);
    });
  });

  it("is made once when several starts ask for it at once, each with the same outcome", async () => {
    const name = `${appRoleFor(new URL(t.url).pathname.slice(1))}_x`.slice(-63);
    const urls = await Promise.all(Array.from({ length: 8 }, () => ensureAppRole(t.url, { name, password: "same-password-for-all" })));
    expect(new Set(urls).size).toBe(1);
    await as(urls[0]!, async (c) => expect((await c.query("SELECT current_user AS u")).rows).toEqual([{ u: name }]));
    await t.pool.query(`REASSIGN OWNED BY "${name}" TO CURRENT_USER; DROP OWNED BY "${name}"; DROP ROLE "${name}"`);
  });
});
