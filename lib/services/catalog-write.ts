import "server-only";
import { sql } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/client";
import { gameAltTitles } from "@/lib/catalog/alt-titles";
import { gearItems, promoCodes } from "@/lib/db/schema";
import { refreshGiftability } from "./giftability";

export type FeaturedList = "top_sellers" | "new_releases";

export interface PackageInput {
  packageId: number;
  title: string;
  isMain: boolean;
  /** Kopecks; both prices null (and discount 0) when the store shows no price. */
  priceInitial: number | null;
  priceFinal: number | null;
  discountPercent: number;
  /** Its offers in gift regions; each replaces the stored offer of its region, other regions' stay. */
  regionPrices?: RegionPriceInput[];
}

export interface RegionPriceInput {
  /** ISO 3166 alpha-2, upper-case. */
  region: string;
  /** ISO 4217, upper-case. */
  currency: string;
  /** Minor units (1/100) of `currency`; null only when restricted. */
  amount: number | null;
  restricted: boolean;
}

export interface GameInput {
  appId: number;
  title: string;
  titleRu: string | null;
  /** Names to search by besides the titles; known names and the title's abbreviation are added on write. */
  altTitles?: string[];
  /** Russian. */
  shortDescription: string;
  shortDescriptionEn: string | null;
  headerImage: string | null;
  genres: string[];
  featured: FeaturedList[];
  comingSoon: boolean;
  /** YYYY-MM-DD. */
  releaseDate: string | null;
  sortRank: number;
  giftRegions: string[];
  /** In display order; exactly one is the main edition. */
  packages: PackageInput[];
}

export interface GearItemInput {
  platformAppId: number;
  /** Stable slug, unique per platform. */
  item: string;
  title: string;
  price: number;
  stock: number;
}

export interface PromoCodeInput {
  code: string;
  kind: "percent" | "fixed";
  value: number;
  appliesTo: "all" | "gifts" | "gear";
  appIds: number[] | null;
  /** ISO 8601. */
  validFrom: string | null;
  validUntil: string | null;
  maxUses: number | null;
  uses: number;
}

const GAMES_PER_TRANSACTION = 1000;

/**
 * Inserts or replaces games with their packages. A game's packages become exactly the given
 * ones, except that a dropped package an intent still points at is kept (demoted, not deleted).
 * Each run of 1000 games is one transaction, so a failure part-way leaves the earlier runs written;
 * running the same input again is safe.
 */
export async function upsertGames(db: DbExecutor, input: readonly GameInput[]): Promise<{ games: number; packages: number }> {
  assertValidGames(input);
  let packageCount = 0;
  for (let start = 0; start < input.length; start += GAMES_PER_TRANSACTION) {
    const chunk = input.slice(start, start + GAMES_PER_TRANSACTION);
    packageCount += await upsertGameChunk(db, chunk);
  }
  return { games: input.length, packages: packageCount };
}

async function upsertGameChunk(db: DbExecutor, chunk: readonly GameInput[]): Promise<number> {
  const gameRows = chunk.map((g) => ({
    app_id: g.appId,
    title: g.title,
    title_ru: g.titleRu,
    alt_titles: gameAltTitles(g),
    short_description: g.shortDescription,
    short_description_en: g.shortDescriptionEn,
    header_image: g.headerImage,
    genres: g.genres,
    genre_keys: g.genres.map((genre) => genre.toLowerCase()),
    featured: g.featured,
    coming_soon: g.comingSoon,
    release_date: g.releaseDate,
    sort_rank: g.sortRank,
    gift_regions: g.giftRegions,
  }));
  const packageRows = chunk.flatMap((g) =>
    g.packages.map((p, position) => ({
      package_id: p.packageId,
      app_id: g.appId,
      title: p.title,
      is_main: p.isMain,
      position,
      price_initial: p.priceInitial,
      price_final: p.priceFinal,
      discount_percent: p.discountPercent,
    })),
  );
  const regionRows = chunk.flatMap((g) =>
    g.packages.flatMap((p) =>
      (p.regionPrices ?? []).map((r) => ({
        package_id: p.packageId,
        region: r.region,
        currency: r.currency,
        amount: r.amount,
        restricted: r.restricted,
      })),
    ),
  );
  const appIds = json(chunk.map((g) => g.appId));
  const packageIds = json(packageRows.map((p) => p.package_id));

  // Each statement takes its rows as one JSON parameter: building thousands of bind parameters
  // costs far more client CPU than PostgreSQL spends decoding the JSON.
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO games (app_id, title, title_ru, alt_titles, short_description, short_description_en, header_image,
        genres, genre_keys, featured, coming_soon, release_date, sort_rank, gift_regions)
      SELECT * FROM json_to_recordset(${json(gameRows)}::json) AS r(app_id int, title text, title_ru text, alt_titles text[],
        short_description text, short_description_en text, header_image text, genres text[], genre_keys text[],
        featured text[], coming_soon boolean, release_date date, sort_rank int, gift_regions text[])
      ON CONFLICT (app_id) DO UPDATE SET
        title = excluded.title, title_ru = excluded.title_ru, alt_titles = excluded.alt_titles,
        short_description = excluded.short_description,
        short_description_en = excluded.short_description_en, header_image = excluded.header_image,
        genres = excluded.genres, genre_keys = excluded.genre_keys, featured = excluded.featured,
        coming_soon = excluded.coming_soon, release_date = excluded.release_date, sort_rank = excluded.sort_rank,
        gift_regions = excluded.gift_regions`);
    // The one-main-per-game index is checked row by row, so a game's old main edition must
    // step down before a new one arrives in the same statement.
    await tx.execute(sql`
      UPDATE packages SET is_main = false
      WHERE is_main AND app_id IN (SELECT json_array_elements_text(${appIds}::json)::int)`);
    await tx.execute(sql`
      DELETE FROM packages p
      WHERE p.app_id IN (SELECT json_array_elements_text(${appIds}::json)::int)
        AND p.package_id NOT IN (SELECT json_array_elements_text(${packageIds}::json)::int)
        AND NOT EXISTS (SELECT 1 FROM intents i WHERE i.package_id = p.package_id)`);
    await tx.execute(sql`
      INSERT INTO packages (package_id, app_id, title, is_main, position, price_initial, price_final, discount_percent)
      SELECT * FROM json_to_recordset(${json(packageRows)}::json) AS r(package_id int, app_id int, title text,
        is_main boolean, position smallint, price_initial int, price_final int, discount_percent smallint)
      ON CONFLICT (package_id) DO UPDATE SET
        app_id = excluded.app_id, title = excluded.title, is_main = excluded.is_main, position = excluded.position,
        price_initial = excluded.price_initial, price_final = excluded.price_final,
        discount_percent = excluded.discount_percent`);
    if (regionRows.length > 0)
      await tx.execute(sql`
        INSERT INTO package_region_prices (package_id, region, currency, amount, restricted)
        SELECT * FROM json_to_recordset(${json(regionRows)}::json)
          AS r(package_id int, region text, currency text, amount int, restricted boolean)
        ON CONFLICT (package_id, region) DO UPDATE SET
          currency = excluded.currency, amount = excluded.amount, restricted = excluded.restricted`);
  });
  return packageRows.length;
}

const json = (value: unknown) => JSON.stringify(value);

function assertValidGames(input: readonly GameInput[]): void {
  const appIds = new Set<number>();
  const packageIds = new Set<number>();
  for (const game of input) {
    if (appIds.has(game.appId)) throw new Error(`app ${game.appId} appears twice in one upsert`);
    appIds.add(game.appId);
    const mains = game.packages.filter((p) => p.isMain).length;
    if (mains !== 1) throw new Error(`app ${game.appId} must have exactly one main package, has ${mains}`);
    for (const p of game.packages) {
      if (packageIds.has(p.packageId)) throw new Error(`package ${p.packageId} appears twice in one upsert`);
      packageIds.add(p.packageId);
    }
  }
}

export async function upsertGearItems(db: Database, input: readonly GearItemInput[]): Promise<number> {
  if (input.length === 0) return 0;
  await db
    .insert(gearItems)
    .values([...input])
    .onConflictDoUpdate({
      target: [gearItems.platformAppId, gearItems.item],
      set: { title: sql`excluded.title`, price: sql`excluded.price`, stock: sql`excluded.stock` },
    });
  return input.length;
}

export async function upsertPromoCodes(db: Database, input: readonly PromoCodeInput[]): Promise<number> {
  if (input.length === 0) return 0;
  await db
    .insert(promoCodes)
    .values(
      input.map((p) => ({
        code: p.code.toUpperCase(),
        kind: p.kind,
        value: p.value,
        appliesTo: p.appliesTo,
        appIds: p.appIds,
        validFrom: p.validFrom === null ? null : new Date(p.validFrom),
        validUntil: p.validUntil === null ? null : new Date(p.validUntil),
        maxUses: p.maxUses,
        uses: p.uses,
      })),
    )
    .onConflictDoUpdate({
      target: promoCodes.code,
      set: {
        kind: sql`excluded.kind`,
        value: sql`excluded.value`,
        appliesTo: sql`excluded.applies_to`,
        appIds: sql`excluded.app_ids`,
        validFrom: sql`excluded.valid_from`,
        validUntil: sql`excluded.valid_until`,
        maxUses: sql`excluded.max_uses`,
        uses: sql`excluded.uses`,
      },
    });
  return input.length;
}

/**
 * Brings what the catalog derives from games, prices and rates up to date: which games can be
 * gifted where (giftable_games), which can be bought at all (games.sort_tier) and the per-filter totals (catalog_counts, giftable_counts). Every
 * path that writes games, packages, regional prices or rates calls it once when done: per batch
 * would recount the whole catalog each time.
 */
export async function refreshCatalogCounts(db: DbExecutor): Promise<void> {
  await refreshSortTiers(db);
  await refreshGiftability(db);
  // Refreshing needs the views' owner, which the app's role is not: drizzle/0029's function is.
  await db.execute(sql`SELECT refresh_catalog_views()`);
}

/**
 * games.sort_tier: 1 for a game that cannot be bought yet (not released, or its main edition has no
 * price and it is not free to play), 0 otherwise; every catalog order puts tier 1 last. Only the
 * rows whose tier changed are written.
 */
async function refreshSortTiers(db: DbExecutor): Promise<void> {
  await db.execute(sql`
    UPDATE games g SET sort_tier = t.tier
    FROM (SELECT x.app_id,
                 CASE WHEN x.coming_soon OR (p.price_final IS NULL AND NOT x.genre_keys @> ARRAY['free to play']::text[])
                      THEN 1 ELSE 0 END AS tier
          FROM games x LEFT JOIN packages p ON p.app_id = x.app_id AND p.is_main) AS t
    WHERE g.app_id = t.app_id AND g.sort_tier <> t.tier`);
}
