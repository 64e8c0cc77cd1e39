import crypto from "node:crypto";
import pg from "pg";

// The app's database role: what the running app (server processes, their worker, the storefront)
// connects as. It is no superuser and owns nothing; the owner (migrations, the seed, the operator
// CLIs) made every table and, after every migration run, grants it exactly the privileges below, so
// a table a later migration adds is covered whoever ran it. The one policy lives here.

/** Serialises migrations, grants and role changes of one database (lib/db/migrate.ts takes it too). */
export const MIGRATION_LOCK = 7_240_001;

/** Tables the app may read and add to but never change: no UPDATE, DELETE or TRUNCATE. */
const APPEND_ONLY = ["audit_log"];

export interface AppRole {
  name: string;
  password: string;
}

/**
 * The app role of database `database`: `<database>_app`. Roles belong to the whole server, so one
 * named after its database cannot meet another database's (several test databases, two checkouts
 * sharing a server); a name past PostgreSQL's 63 bytes keeps its end and a hash of the whole.
 */
export function appRoleFor(database: string): string {
  const name = `${database}_app`;
  if (Buffer.byteLength(name) <= 63) return name;
  let tail = "";
  for (const char of [...name].reverse()) {
    if (Buffer.byteLength(char + tail) > 50) break;
    tail = char + tail;
  }
  return `${crypto.createHash("sha256").update(name).digest("hex").slice(0, 12)}_${tail}`;
}

/** The user name a connection URL logs in as. */
export function roleOf(url: string): string {
  return decodeURIComponent(new URL(url).username);
}

/** `url` logging in as `role` instead, everything else (host, database, options) kept. */
export function urlAsRole(url: string, role: AppRole): string {
  const u = new URL(url);
  u.username = encodeURIComponent(role.name);
  u.password = encodeURIComponent(role.password);
  return u.toString();
}

/**
 * Creates the app role when it is missing, sets its password and grants it its privileges in the
 * database `ownerUrl` names; returns the URL the app connects with. Idempotent, and safe when
 * several processes run it at once. The owner needs CREATEROLE (a superuser in the embedded
 * database and the tests; a production server's roles are made once by hand: docs/deployment.md).
 */
export async function ensureAppRole(ownerUrl: string, role: AppRole): Promise<string> {
  await withLockedClient(ownerUrl, async (client) => {
    const ident = client.escapeIdentifier(role.name);
    const { rowCount } = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role.name]);
    if (!rowCount) {
      // The lock is per database: another database's start may make the same name in the moment.
      await client.query("SAVEPOINT create_role");
      await client.query(`CREATE ROLE ${ident} LOGIN`).then(
        () => client.query("RELEASE SAVEPOINT create_role"),
        async (err: { code?: string }) => {
          if (err.code !== "42710" && err.code !== "23505") throw err;
          await client.query("ROLLBACK TO SAVEPOINT create_role");
        },
      );
    }
    await client.query(
      `ALTER ROLE ${ident} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${client.escapeLiteral(role.password)}`,
    );
    await grantAppPrivileges(client, role.name);
  });
  return urlAsRole(ownerUrl, role);
}

/** Runs `work` in a transaction of a client of `url` holding MIGRATION_LOCK. */
async function withLockedClient(url: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await work(client);
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/**
 * The app role's privileges, exactly: whatever it held before is revoked first, in the same
 * transaction, so a policy made stricter here takes effect on the next migration run. Read every
 * table and view; write every table but the append-only ones, which take INSERT alone; use the
 * sequences; run the functions (drizzle/0029's catalog refresh runs as its owner); and read which
 * migrations are applied (GET /api/ready). Never TRUNCATE, REFERENCES, TRIGGER or any DDL.
 */
export async function grantAppPrivileges(client: pg.ClientBase, role: string): Promise<void> {
  const to = client.escapeIdentifier(role);
  const { rows } = await client.query<{ name: string; append_only: boolean }>(
    `SELECT relname AS name, relname = ANY($1) AS append_only FROM pg_class
     WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') ORDER BY relname`,
    [APPEND_ONLY],
  );
  const list = (append: boolean) =>
    rows
      .filter((r) => r.append_only === append)
      .map((r) => `public.${client.escapeIdentifier(r.name)}`)
      .join(", ");
  const [writable, appendOnly] = [list(false), list(true)];
  const migrations = await client.query<{ present: boolean }>("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present");
  const statements = [
    `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${to}`,
    `REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${to}`,
    `REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM ${to}`,
    `GRANT USAGE ON SCHEMA public TO ${to}`,
    `GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${to}`,
    ...(writable ? [`GRANT INSERT, UPDATE, DELETE ON ${writable} TO ${to}`] : []),
    ...(appendOnly ? [`GRANT INSERT ON ${appendOnly} TO ${to}`] : []),
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${to}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${to}`,
    ...(migrations.rows[0]?.present
      ? [`GRANT USAGE ON SCHEMA drizzle TO ${to}`, `GRANT SELECT ON drizzle.__drizzle_migrations TO ${to}`]
      : []),
  ];
  for (const statement of statements) await client.query(statement);
}
