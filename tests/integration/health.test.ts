import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import journal from "@/drizzle/meta/_journal.json";
import { createDb, createPool } from "@/lib/db/client";
import { checkReadiness } from "@/lib/services/health";
import { createEmptyDatabase, createTestDatabase, freeLoopbackPort, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.close());

describe("readiness", () => {
  it("is ready on a fully migrated database", async () => {
    expect(await checkReadiness(t.db)).toEqual({ ready: true, migrations: journal.entries.length });
  });

  it("is not ready when the latest migration is missing", async () => {
    await t.db.execute(sql`BEGIN`);
    try {
      await t.db.execute(
        sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`,
      );
      expect(await checkReadiness(t.db)).toEqual({ ready: false, reason: "database migrations are not all applied" });
    } finally {
      await t.db.execute(sql`ROLLBACK`);
    }
  });

  it("is not ready on a database that was never migrated", async () => {
    const empty = await createEmptyDatabase();
    const pool = createPool(empty.url, 1);
    try {
      expect(await checkReadiness(createDb(pool))).toEqual({ ready: false, reason: "database migrations are not all applied" });
    } finally {
      await pool.end();
      await empty.drop();
    }
  });

  it("is not ready when nothing listens at the database's address", async () => {
    const pool = createPool(`postgres://nobody@127.0.0.1:${await freeLoopbackPort()}/none`, 1);
    try {
      expect(await checkReadiness(createDb(pool))).toEqual({ ready: false, reason: "the database is unreachable" });
    } finally {
      await pool.end();
    }
  });
});
