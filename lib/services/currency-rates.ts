import "server-only";
import { sql } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/client";
import { refreshCatalogCounts } from "./catalog-write";
import { upsertCurrencyRates, type CurrencyRateInput } from "./giftability";

/** A currency the store knows a rate for, or one its regional prices use without a rate. */
export interface CurrencyRateState {
  currency: string;
  /** The latest rate (the one that applies), roubles per unit in millionths; null when there is none. */
  rubMicrosPerUnit: number | null;
  asOf: string | null;
  /** Regions whose prices are in this currency. */
  regions: string[];
}

/** A new rate far from the one it replaces: likely a typo (a misplaced dot), so the operator must confirm it. */
export interface RateJump {
  currency: string;
  from: number;
  to: number;
}

/** How far (a factor, either way) a new rate may move from the current one before it counts as a jump. */
export const RATE_JUMP_FACTOR = 2;

/** Every currency with a rate or a regional price, with the rate that applies now; the rouble left out. */
export async function listCurrencyRates(db: DbExecutor): Promise<CurrencyRateState[]> {
  const { rows } = await db.execute<{ currency: string; rub_micros_per_unit: string | null; as_of: string | null; regions: string[] }>(sql`
    WITH used AS (SELECT currency, array_agg(DISTINCT region ORDER BY region) AS regions FROM package_region_prices GROUP BY currency),
    latest AS (SELECT DISTINCT ON (currency) currency, rub_micros_per_unit, as_of::text FROM currency_rates ORDER BY currency, as_of DESC)
    SELECT coalesce(l.currency, u.currency) AS currency, l.rub_micros_per_unit::text, l.as_of, coalesce(u.regions, '{}') AS regions
    FROM latest l FULL JOIN used u ON u.currency = l.currency
    WHERE coalesce(l.currency, u.currency) <> 'RUB'
    ORDER BY 1`);
  return rows.map((r) => ({
    currency: r.currency,
    rubMicrosPerUnit: r.rub_micros_per_unit === null ? null : Number(r.rub_micros_per_unit),
    asOf: r.as_of,
    regions: r.regions,
  }));
}

/** The rates that move more than RATE_JUMP_FACTOR from the rate now in force for their currency. */
export async function rateJumps(db: DbExecutor, rates: readonly CurrencyRateInput[]): Promise<RateJump[]> {
  const current = new Map((await listCurrencyRates(db)).map((r) => [r.currency, r.rubMicrosPerUnit]));
  return rates.flatMap((r) => {
    const from = current.get(r.currency);
    if (from == null) return [];
    const far = r.rubMicrosPerUnit > from * RATE_JUMP_FACTOR || r.rubMicrosPerUnit * RATE_JUMP_FACTOR < from;
    return far ? [{ currency: r.currency, from, to: r.rubMicrosPerUnit }] : [];
  });
}

const giftablePairs = async (db: DbExecutor) =>
  (await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM giftable_games`)).rows[0]?.n ?? 0;

/**
 * Stores dated rates (replacing one of the same currency and day) and brings what depends on them
 * up to date: which games can be gifted where, and the catalog's totals. Answers how many
 * (game, region) pairs can be gifted before and after.
 */
export async function setCurrencyRates(db: Database, rates: readonly CurrencyRateInput[]): Promise<{ before: number; after: number }> {
  const before = await giftablePairs(db);
  await upsertCurrencyRates(db, rates);
  await refreshCatalogCounts(db);
  return { before, after: await giftablePairs(db) };
}
