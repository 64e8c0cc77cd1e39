import "server-only";
import { sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import type { RegionOffer } from "@/lib/catalog/availability";
import { env } from "@/lib/env";

export interface CurrencyRateInput {
  currency: string;
  /** YYYY-MM-DD. */
  asOf: string;
  /** Roubles per unit, in millionths (80.5 RUB per USD is 80_500_000). */
  rubMicrosPerUnit: number;
}

export interface OfferRow extends Record<string, unknown> {
  region: string;
  currency: string;
  amount: number | null;
  restricted: boolean;
  rub_micros_per_unit: string | null;
}

// The latest rate of the row's currency; bigint comes back as text and is exact as a Number below 2^53.
export const CURRENT_RATE = sql`LEFT JOIN LATERAL (
    SELECT r.rub_micros_per_unit FROM currency_rates r WHERE r.currency = rp.currency ORDER BY r.as_of DESC LIMIT 1
  ) AS rate ON true`;

export const toOffer = (row: OfferRow): RegionOffer => ({
  currency: row.currency,
  amount: row.amount,
  restricted: row.restricted,
  rubMicrosPerUnit: row.rub_micros_per_unit === null ? null : Number(row.rub_micros_per_unit),
});

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
 * Brings giftable_games up to date: for every game and each of its gift regions, whether its main
 * edition can be gifted there now. The condition is giftRefusal's (lib/catalog/availability.ts) in
 * SQL, the gap compared in exact numeric as withinPriceGap does; tests/integration/giftability.test.ts
 * checks the two agree on every (game, region) of the demo catalog. Every write of games, prices
 * or rates calls it (then refreshCatalogCounts). One statement computes the whole set and writes
 * only the difference (rows gone, rows new, a changed sort_rank), so readers see the old set until
 * the new one is whole, and one game's edit writes that game's rows, not the store's millions.
 * One refresh at a time: two at once would each compute the set before the other's rows commit.
 */
export async function refreshGiftability(db: DbExecutor, maxGapPercent: number = env.GIFT_PRICE_GAP): Promise<void> {
  const gapBasisPoints = Math.round(maxGapPercent * 100);
  await db.transaction(async (tx) => {
    // Held to the end of the caller's transaction when there is one.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('giftkey:giftable_games'))`);
    await tx.execute(sql`
    WITH rate AS (
      SELECT DISTINCT ON (currency) currency, rub_micros_per_unit FROM currency_rates ORDER BY currency, as_of DESC
    ),
    giftable AS MATERIALIZED (
      SELECT region.code AS region, g.app_id, g.sort_rank
      FROM games g
      JOIN packages p ON p.app_id = g.app_id AND p.is_main
      CROSS JOIN LATERAL (SELECT DISTINCT code FROM unnest(g.gift_regions) AS code) AS region
      LEFT JOIN package_region_prices rp ON rp.package_id = p.package_id AND rp.region = region.code
      LEFT JOIN rate ON rate.currency = rp.currency
      WHERE NOT g.coming_soon
        AND NOT g.hidden
        AND p.price_final IS NOT NULL
        AND (rp.package_id IS NULL
          OR (NOT rp.restricted AND rate.rub_micros_per_unit IS NOT NULL
              AND abs(rp.amount::numeric * rate.rub_micros_per_unit - p.price_final::numeric * 1000000) * 10000
                  <= ${gapBasisPoints}::numeric * p.price_final * 1000000))
    ),
    gone AS (
      DELETE FROM giftable_games gg
      WHERE NOT EXISTS (SELECT 1 FROM giftable n WHERE n.region = gg.region AND n.app_id = gg.app_id)
    )
    INSERT INTO giftable_games (region, app_id, sort_rank)
    SELECT region, app_id, sort_rank FROM giftable
    ON CONFLICT (region, app_id) DO UPDATE SET sort_rank = excluded.sort_rank
      WHERE giftable_games.sort_rank IS DISTINCT FROM excluded.sort_rank`);
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
