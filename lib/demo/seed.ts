import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { DEMO_CURRENCY_RATES, DEMO_PROMO_CODES, generateDemoGames, generateDemoGearItems } from "@/lib/demo/generate";
import { refreshCatalogCounts, upsertGames, upsertGearItems, upsertPromoCodes } from "@/lib/services/catalog-write";
import { upsertCurrencyRates } from "@/lib/services/giftability";

export interface SeedOptions {
  games: number;
  seed?: number;
}

export interface SeedSummary {
  games: number;
  packages: number;
  gearItems: number;
  promoCodes: number;
}

const BATCH = 1000;
// Two batches in flight keep both the generator and PostgreSQL busy; more only queue up.
const IN_FLIGHT = 2;

/** Writes the generated demo catalog, replacing rows with the same ids; other rows are left alone. */
export async function seedDemoData(db: Database, opts: SeedOptions): Promise<SeedSummary> {
  const summary: SeedSummary = { games: 0, packages: 0, gearItems: 0, promoCodes: 0 };
  const inFlight: Promise<void>[] = [];
  for (const batch of batches(generateDemoGames(opts), BATCH)) {
    if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    const write = upsertGames(db, batch).then((written) => {
      summary.games += written.games;
      summary.packages += written.packages;
    });
    // Awaited in turn below; the no-op handler only stops a later batch's failure from counting as unhandled meanwhile.
    write.catch(() => {});
    inFlight.push(write);
  }
  await Promise.all(inFlight);
  summary.gearItems = await upsertGearItems(db, generateDemoGearItems(opts.seed));
  summary.promoCodes = await upsertPromoCodes(db, DEMO_PROMO_CODES);
  await upsertCurrencyRates(db, DEMO_CURRENCY_RATES);
  await refreshCatalogCounts(db);
  // Fresh statistics and visibility map: without them the first catalog queries on a new 100k
  // catalog plan as if the tables were empty and cannot use index-only scans.
  await db.execute(
    sql`VACUUM (ANALYZE) games, packages, package_region_prices, giftable_games, gear_items, promo_codes, catalog_counts, giftable_counts, catalog_checkpoints`,
  );
  return summary;
}

function* batches<T>(items: Iterable<T>, size: number): Generator<T[], void, undefined> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Seeds only a database without games; null when there was something already. */
export async function seedDemoDataIfEmpty(db: Database, opts: SeedOptions): Promise<SeedSummary | null> {
  const { rows } = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM games) AS "any"`);
  if (rows[0]?.any) return null;
  return seedDemoData(db, opts);
}
