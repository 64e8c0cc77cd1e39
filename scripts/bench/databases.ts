// The benchmarks' databases: one per catalog size, seeded once and reused while their seed matches,
// and the reports' copy of one (scripts/bench.ts and scripts/bench-reports.ts share both).
import { createDb, createPool } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { seedDemoData } from "@/lib/demo/seed";
import { API_SCOPES } from "@/lib/schemas/tokens";
import { upsertGearItems } from "@/lib/services/catalog-write";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
import { databaseUrl } from "../lib/processes";

/** One database per catalog size, so the growth table's three sizes are each seeded once and kept. */
export const benchDb = (games: number) => `gk_bench_${games}`;
export const GEAR_PLATFORM = 730;
// Many items, so the run measures the reservation path rather than one row lock.
export const GEAR_ITEMS = Array.from({ length: 200 }, (_, i) => `bench-${String(i).padStart(3, "0")}`);

/**
 * gk_bench_<games>, seeded with `games` games. A database whose seed completed with the same count is
 * reused (the seed is deterministic); anything else, or --fresh, is dropped and seeded again.
 */
export async function prepareDatabase(adminUrl: string, { games, fresh }: { games: number; fresh: boolean }) {
  const BENCH_DB = benchDb(games);
  const url = databaseUrl(adminUrl, BENCH_DB);
  const marker = `bench seed: ${games} games`;
  const admin = createPool(adminUrl, 1);
  let reused = false;
  let seedSeconds: number | null = null;
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      "SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1",
      [BENCH_DB],
    );
    // The marker records how long the seed took, so a later run reusing the database can still say.
    const comment = rows[0]?.comment ?? "";
    reused = !fresh && comment.startsWith(marker);
    if (reused) seedSeconds = Number(/seeded in ([\d.]+) s/.exec(comment)?.[1] ?? Number.NaN) || null;
    if (!reused) {
      await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${BENCH_DB}`);
    }
    await migrateDatabase(url);
    const pool = createPool(url, 4);
    try {
      const db = createDb(pool);
      if (!reused) {
        const t = performance.now();
        await seedDemoData(db, { games: games });
        const seeded = (performance.now() - t) / 1000;
        await pool.query("VACUUM (ANALYZE)");
        seedSeconds = (performance.now() - t) / 1000;
        console.log(
          `Seeded ${games} games into ${BENCH_DB} in ${seedSeconds.toFixed(1)} s (${seeded.toFixed(1)} s writing, the rest VACUUM ANALYZE).`,
        );
        await admin.query(`COMMENT ON DATABASE ${BENCH_DB} IS '${marker}; seeded in ${seedSeconds.toFixed(1)} s'`);
      } else {
        console.log(`Reusing ${BENCH_DB}: it already holds the ${games}-game seed (--fresh seeds it again).`);
      }
      await upsertGearItems(
        db,
        GEAR_ITEMS.map((item) => ({ platformAppId: GEAR_PLATFORM, item, title: `Bench item ${item}`, price: 49_900, stock: 1_000_000 })),
      );
      const userId = await ensureUser(db, "bench@example.com", "Benchmark");
      const token = await createApiToken(db, { userId, name: `bench ${new Date().toISOString()}`, scopes: [...API_SCOPES] });
      const { rows: version } = await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v");
      return { url, reused, seedSeconds, token: token.token, tokenId: token.id, version: version[0]?.v ?? "?" };
    } finally {
      await pool.end();
    }
  } finally {
    await admin.end();
  }
}

/**
 * The reports' database: a copy of the benchmark's catalog database (CREATE DATABASE … TEMPLATE, a
 * file copy, seconds instead of a second catalog seed) that seedReports then fills with orders. Kept
 * apart so the orders never weigh on the catalog and write phases, and made again whenever the catalog
 * it was copied from is no longer the one it names.
 */
export async function reportsDatabase(adminUrl: string, options: { games: number; fresh: boolean }): Promise<string> {
  const catalog = await prepareDatabase(adminUrl, options);
  const source = benchDb(options.games);
  const name = `${source}_reports`;
  const admin = createPool(adminUrl, 1);
  try {
    const comment = async (db: string) =>
      (
        await admin.query<{ comment: string | null }>(
          "SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1",
          [db],
        )
      ).rows[0]?.comment ?? null;
    const marker = `reports on a copy of ${source}: ${await comment(source)}`;
    if (!options.fresh && catalog.reused && (await comment(name)) === marker) {
      console.log(`Reusing ${name}, the copy of ${source} the reports are seeded in.`);
    } else {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      // A template may have no other session: the catalog phase's pools are closed by now.
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [source]);
      const t = performance.now();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${source}`);
      await admin.query(`COMMENT ON DATABASE ${name} IS '${marker.replaceAll("'", "''")}'`);
      console.log(`Copied ${source} to ${name} in ${((performance.now() - t) / 1000).toFixed(1)} s.`);
    }
    const url = databaseUrl(adminUrl, name);
    await migrateDatabase(url);
    return url;
  } finally {
    await admin.end();
  }
}
