import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, appQuery } from "./support";

// What the running server may do to its database: it connects as a role that is no superuser, owns
// nothing and may only read and add to the audit log (README, "Security"). Asked of the server's own
// connections (pg_stat_activity), so it holds for exactly the settings the server runs with.

interface ServerRole {
  role: string;
  superuser: boolean;
  createrole: boolean;
  createdb: boolean;
  bypassrls: boolean;
  owned: number;
  memberships: number;
}

async function serverRoles(): Promise<ServerRole[]> {
  // Any request that reads the database leaves the server's pool connected for 30 s.
  expect((await api("/api/v1/gifts/catalog?limit=1")).status).toBe(200);
  return appQuery<ServerRole>(
    `SELECT r.rolname AS role, r.rolsuper AS superuser, r.rolcreaterole AS createrole, r.rolcreatedb AS createdb,
            r.rolbypassrls AS bypassrls,
            (SELECT count(*)::int FROM pg_shdepend d WHERE d.refobjid = r.oid AND d.deptype = 'o') AS owned,
            (SELECT count(*)::int FROM pg_auth_members m WHERE m.member = r.oid) AS memberships
     FROM pg_roles r
     WHERE r.rolname IN (SELECT usename FROM pg_stat_activity
                         WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid())`,
  );
}

describe("the server's database role", () => {
  it("is no superuser, may create neither roles nor databases, belongs to no other role and owns nothing", async () => {
    const roles = await serverRoles();
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) {
      expect(role).toEqual({
        role: role.role,
        superuser: false,
        createrole: false,
        createdb: false,
        bypassrls: false,
        owned: 0,
        memberships: 0,
      });
    }
    const [{ tables }] = (await appQuery<{ tables: number }>(
      "SELECT count(*)::int AS tables FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = ANY($1)",
      [roles.map((r) => r.role)],
    )) as [{ tables: number }];
    expect(tables).toBe(0);
  });

  it("may read and add to the audit log, never change, delete or empty it", async () => {
    const [role] = await serverRoles();
    const rows = await appQuery<Record<string, boolean>>(
      `SELECT ${["SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"]
        .map((p) => `has_table_privilege($1, 'audit_log', '${p}') AS "${p}"`)
        .join(", ")}`,
      [role!.role],
    );
    expect(rows[0]).toEqual({
      SELECT: true,
      INSERT: true,
      UPDATE: false,
      DELETE: false,
      TRUNCATE: false,
      REFERENCES: false,
      TRIGGER: false,
    });
  });
});

describe("a hidden game's covers", () => {
  let appId = 0;

  beforeAll(async () => {
    // A game no other test uses, with a drawn cover (no store image).
    const [game] = await appQuery<{ app_id: number }>(
      "SELECT app_id FROM games WHERE NOT hidden AND header_image IS NULL AND app_id NOT IN (620, 730, 570, 1091500, 1245620, 999990, 999991) ORDER BY app_id DESC LIMIT 1",
    );
    appId = game!.app_id;
  });

  afterAll(async () => {
    if (appId) await appQuery("UPDATE games SET hidden = false WHERE app_id = $1", [appId]);
  });

  const get = (path: string) =>
    fetch(`${inject("appBaseUrl")}${path}`).then(async (r) => ({ status: r.status, type: r.headers.get("content-type") }));

  it("answer 404 like its page, even a share card drawn while it was listed", async () => {
    expect((await get(`/covers/${appId}.png`)).status).toBe(200);
    expect((await get(`/covers/${appId}.svg?v=2`)).status).toBe(200);
    await appQuery("UPDATE games SET hidden = true WHERE app_id = $1", [appId]);
    expect((await get(`/games/${appId}`)).status).toBe(404);
    for (const path of [`/covers/${appId}.png`, `/covers/${appId}.png?v=2`, `/covers/${appId}.svg`, `/covers/${appId}.svg?v=2`]) {
      expect(await get(path), path).toEqual({ status: 404, type: expect.stringMatching(/^text\/plain/) });
    }
  });
});
