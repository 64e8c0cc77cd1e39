import "server-only";
import { sql } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/client";
import type { RegionOffer } from "@/lib/catalog/availability";
import { env } from "@/lib/env";

export interface CurrencyRateInput {
  currency: string;
  /** YYYY-MM-DD. */
  asOf: string;
  /** Roubles per unit, in millionths (80.5 RUB per USD is 80_500_000). */
  rubMicrosPerUnit: number;
}

interface OfferRow extends Record<string, unknown> {
  region: string;
  currency: string;
  amount: number | null;
  restricted: boolean;
  rub_micros_per_unit: string | null;
}

// The latest rate of the row's currency; bigint comes back as text and is exact as a Number below 2^53.
const CURRENT_RATE = sql`LEFT JOIN LATERAL (
    SELECT r.rub_micros_per_unit FROM currency_rates r WHERE r.currency = rp.currency ORDER BY r.as_of DESC LIMIT 1
  ) AS rate ON true`;

const toOffer = (row: OfferRow): RegionOffer => ({
  currency: row.currency,
  amount: row.amount,
  restricted: row.restricted,
  rubMicrosPerUnit: row.rub_micros_per_unit === null ? null : Number(row.rub_micros_per_unit),
});

/** A package's offers by region, with the current rate of each one's currency. */
export async function packageRegionOffers(db: DbExecutor, packageId: number, region?: string): Promise<Map<string, RegionOffer>> {
  const { rows } = await db.execute<OfferRow>(
    sql`SELECT rp.region, rp.currency, rp.amount, rp.restricted, rate.rub_micros_per_unit
        FROM package_region_prices rp ${CURRENT_RATE}
        WHERE rp.package_id = ${packageId} ${region === undefined ? sql`` : sql`AND rp.region = ${region}`}`,
  );
  return new Map(rows.map((row) => [row.region, toOffer(row)]));
}

/** The main edition's offers by region. */
export async function mainEditionOffers(db: DbExecutor, appId: number): Promise<Map<string, RegionOffer>> {
  const { rows } = await db.execute<OfferRow>(
    sql`SELECT rp.region, rp.currency, rp.amount, rp.restricted, rate.rub_micros_per_unit
        FROM packages p JOIN package_region_prices rp ON rp.package_id = p.package_id ${CURRENT_RATE}
        WHERE p.app_id = ${appId} AND p.is_main`,
  );
  return new Map(rows.map((row) => [row.region, toOffer(row)]));
}

/** Each edition's offers by region (by package id), for the game page. */
export async function editionOffers(db: DbExecutor, appId: number): Promise<Map<number, Map<string, RegionOffer>>> {
  const { rows } = await db.execute<OfferRow & { package_id: number }>(
    sql`SELECT rp.package_id, rp.region, rp.currency, rp.amount, rp.restricted, rate.rub_micros_per_unit
        FROM packages p JOIN package_region_prices rp ON rp.package_id = p.package_id ${CURRENT_RATE}
        WHERE p.app_id = ${appId}`,
  );
  const byEdition = new Map<number, Map<string, RegionOffer>>();
  for (const row of rows) {
    const offers = byEdition.get(row.package_id) ?? new Map<string, RegionOffer>();
    byEdition.set(row.package_id, offers.set(row.region, toOffer(row)));
  }
  return byEdition;
}

/**
 * Rebuilds giftable_games: for every game and each of its gift regions, whether its main edition
 * can be gifted there now. The condition is giftRefusal's (lib/catalog/availability.ts) in SQL,
 * the gap compared in exact numeric as withinPriceGap does; tests/integration/giftability.test.ts
 * checks the two agree on every (game, region) of the demo catalog. Every write of games, prices
 * or rates calls it (then refreshCatalogCounts); one transaction, so readers see the old set until
 * the new one is whole.
 */
export async function refreshGiftability(db: Database, maxGapPercent: number = env.GIFT_PRICE_GAP): Promise<void> {
  const gapBasisPoints = Math.round(maxGapPercent * 100);
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM giftable_games`);
    await tx.execute(sql`
      INSERT INTO giftable_games (region, app_id, sort_rank)
      SELECT DISTINCT region.code, g.app_id, g.sort_rank
      FROM games g
      JOIN packages p ON p.app_id = g.app_id AND p.is_main
      CROSS JOIN LATERAL unnest(g.gift_regions) AS region(code)
      LEFT JOIN package_region_prices rp ON rp.package_id = p.package_id AND rp.region = region.code
      ${CURRENT_RATE}
      WHERE NOT g.coming_soon
        AND NOT g.hidden
        AND p.price_final IS NOT NULL
        AND (rp.package_id IS NULL
          OR (NOT rp.restricted AND rate.rub_micros_per_unit IS NOT NULL
              AND abs(rp.amount::numeric * rate.rub_micros_per_unit - p.price_final::numeric * 1000000) * 10000
                  <= ${gapBasisPoints}::numeric * p.price_final * 1000000))`);
  });
}

/** Adds or replaces rates (one per currency and day). The caller refreshes giftability and the counts. */
export async function upsertCurrencyRates(db: DbExecutor, rates: readonly CurrencyRateInput[]): Promise<number> {
  if (rates.length === 0) return 0;
  await db.execute(sql`
    INSERT INTO currency_rates (currency, as_of, rub_micros_per_unit)
    SELECT * FROM json_to_recordset(${JSON.stringify(rates)}::json)
      AS r("currency" text, "asOf" date, "rubMicrosPerUnit" bigint)
    ON CONFLICT (currency, as_of) DO UPDATE SET rub_micros_per_unit = excluded.rub_micros_per_unit`);
  return rates.length;
}
