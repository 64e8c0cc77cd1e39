// The benchmarks' databases: one per catalog size, seeded once and reused while their seed matches,
// and the reports' copy of one (scripts/bench.ts and scripts/bench-reports.ts share both).
import type pg from "pg";
import { createDb, createPool } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { seedDemoData } from "@/lib/demo/seed";
import { API_SCOPES } from "@/lib/schemas/tokens";
import { upsertGearItems } from "@/lib/services/catalog-write";
import { CLI_ACTOR } from "@/lib/services/audit";
import { makePartner, setPartnerHoldCap } from "@/lib/services/partners";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
import { databaseUrl } from "../lib/processes";

/** One database per catalog size, so the growth table's three sizes are each seeded once and kept. */
export const benchDb = (games: number) => `gk_bench_${games}`;
export const GEAR_PLATFORM = 730;
/** The benchmark partner's own cap on open holds: above what a whole run (writes and soak) leaves open. */
const BENCH_HOLD_CAP = 1_000_000;
// Many items, so the run measures the reservation path rather than one row lock.
export const GEAR_ITEMS = Array.from({ length: 200 }, (_, i) => `bench-${String(i).padStart(3, "0")}`);

interface SeedOptions {
  games: number;
  fresh: boolean;
}

/**
 * gk_bench_<games> for a load phase: the catalog (catalogDatabase), the gear items the writes reserve,
 * and a fresh token with every scope.
 */
export async function prepareDatabase(adminUrl: string, options: SeedOptions) {
  const catalog = await catalogDatabase(adminUrl, options);
  const pool = createPool(catalog.url, 4);
  try {
    const db = createDb(pool);
    await upsertGearItems(
      db,
      GEAR_ITEMS.map((item) => ({ platformAppId: GEAR_PLATFORM, item, title: `Bench item ${item}`, price: 49_900, stock: 1_000_000 })),
    );
    const userId = await ensureUser(db, "bench@example.com", "Benchmark");
    // A partner, as a real integration at this volume would be: its writes leave tens of thousands
    // of reservations open at once (each for INTENT_TTL_SECONDS), so the store gives it a cap of
    // its own that they never reach; the cap is still counted on every reservation.
    await makePartner(db, CLI_ACTOR, "bench@example.com");
    await setPartnerHoldCap(db, CLI_ACTOR, userId, BENCH_HOLD_CAP);
    const token = await createApiToken(db, { userId, name: `bench ${new Date().toISOString()}`, scopes: [...API_SCOPES] });
    const { rows: version } = await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    // The comment records how long the seed took, so a run reusing the database can still say.
    const seedSeconds = Number(/seeded in ([\d.]+) s/.exec(catalog.comment)?.[1] ?? Number.NaN) || null;
    return { url: catalog.url, reused: catalog.reused, seedSeconds, token: token.token, tokenId: token.id, version: version[0]?.v ?? "?" };
  } finally {
    await pool.end();
  }
}

/**
 * The reports' database: a copy of the benchmark's catalog database (CREATE DATABASE … TEMPLATE, a
 * file copy, seconds instead of a second catalog seed) that seedReports then fills with orders. Kept
 * apart so the orders never weigh on the catalog and write phases, and made again whenever the catalog
 * it was copied from is no longer the one it names.
 */
export async function reportsDatabase(adminUrl: string, options: SeedOptions): Promise<string> {
  const catalog = await catalogDatabase(adminUrl, options);
  const name = `${catalog.name}_reports`;
  const marker = `reports on a copy of ${catalog.name}: ${catalog.comment}`;
  const admin = createPool(adminUrl, 1);
  try {
    if (!options.fresh && catalog.reused && (await databaseComment(admin, name)) === marker) {
      console.log(`Reusing ${name}, the copy of ${catalog.name} the reports are seeded in.`);
    } else {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      // A template may have no other session: the catalog phase's pools are closed by now.
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [catalog.name]);
      const t = performance.now();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${catalog.name}`);
      await admin.query(`COMMENT ON DATABASE ${name} IS '${marker.replaceAll("'", "''")}'`);
      console.log(`Copied ${catalog.name} to ${name} in ${((performance.now() - t) / 1000).toFixed(1)} s.`);
    }
    const url = databaseUrl(adminUrl, name);
    await migrateDatabase(url);
    return url;
  } finally {
    await admin.end();
  }
}

/**
 * gk_bench_<games>, seeded with `games` games and migrated. A database whose seed completed with the
 * same count is reused (the seed is deterministic); anything else, or --fresh, is dropped and seeded
 * again. Returns its comment, which names the seed and how long it took.
 */
async function catalogDatabase(adminUrl: string, { games, fresh }: SeedOptions) {
  const name = benchDb(games);
  const url = databaseUrl(adminUrl, name);
  const marker = `bench seed: ${games} games`;
  const admin = createPool(adminUrl, 1);
  try {
    const found = (await databaseComment(admin, name)) ?? "";
    if (!fresh && found.startsWith(marker)) {
      await migrateDatabase(url);
      console.log(`Reusing ${name}: it already holds the ${games}-game seed (--fresh seeds it again).`);
      return { name, url, reused: true, comment: found };
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await migrateDatabase(url);
    const pool = createPool(url, 4);
    try {
      const t = performance.now();
      await seedDemoData(createDb(pool), { games });
      const writing = (performance.now() - t) / 1000;
      await pool.query("VACUUM (ANALYZE)");
      const seconds = (performance.now() - t) / 1000;
      console.log(
        `Seeded ${games} games into ${name} in ${seconds.toFixed(1)} s (${writing.toFixed(1)} s writing, the rest VACUUM ANALYZE).`,
      );
      const comment = `${marker}; seeded in ${seconds.toFixed(1)} s`;
      await admin.query(`COMMENT ON DATABASE ${name} IS '${comment}'`);
      return { name, url, reused: false, comment };
    } finally {
      await pool.end();
    }
  } finally {
    await admin.end();
  }
}

/** A database's comment, where the benchmarks record its seed (null without one, or without the database). */
async function databaseComment(admin: pg.Pool, name: string): Promise<string | null> {
  const { rows } = await admin.query<{ comment: string | null }>(
    "SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1",
    [name],
  );
  return rows[0]?.comment ?? null;
}
