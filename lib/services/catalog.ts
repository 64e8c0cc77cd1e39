import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { env } from "@/lib/env";
import { CURRENCY } from "@/lib/money";
import { toLatin } from "@/lib/catalog/transliterate";
import { COVER_VERSION } from "@/lib/covers/render-cover";
import { isAppId } from "@/lib/schemas/common";
import {
  GIFT_REGION_REFUSALS,
  type CatalogGame,
  type CatalogQuery,
  type CatalogResponse,
  type GameDetails,
  type GamePackage,
  type GiftRegionPrice,
  type Language,
  type Price,
} from "@/lib/schemas/catalog";
import type { CatalogSort } from "@/lib/schemas/catalog-params";
import { TtlCache } from "@/lib/ttl-cache";
import { DomainError } from "@/lib/errors";
import { convertedKopecks, giftRefusals, regionRefusal, type RegionOffer } from "@/lib/catalog/availability";
import { editionOffers } from "./giftability";

const MAX_SEARCH_TERMS = 8;

interface GameRow extends Record<string, unknown> {
  app_id: number;
  title: string;
  title_ru: string | null;
  short_description: string;
  short_description_en: string | null;
  header_image: string | null;
  genres: string[];
  coming_soon: boolean;
  price_initial: number | null;
  price_final: number | null;
  discount_percent: number | null;
  has_gear: boolean;
}

function toPrice(initial: number | null, final: number | null, discountPercent: number | null): Price | null {
  if (final === null) return null;
  const price: Price = { paymentAmount: final, paymentCurrency: CURRENCY };
  if (discountPercent && initial !== null && initial > final) {
    price.paymentAmountFull = initial;
    price.discountPercent = discountPercent;
  }
  return price;
}

/** A catalog game before the request's origin is known: `headerImage` null means the generated cover. */
type StoredGame = Omit<CatalogGame, "headerImage"> & { headerImage: string | null };
type StoredCatalog = { games: StoredGame[]; total: number };

const withOrigin = (game: StoredGame, origin: string): CatalogGame => ({
  ...game,
  headerImage: game.headerImage ?? `${origin}/covers/${game.appId}.svg?v=${COVER_VERSION}`,
});

function toCatalogGame(row: GameRow, lang: Language, origin: string): CatalogGame {
  return withOrigin(toStoredGame(row, lang), origin);
}

function toStoredGame(row: GameRow, lang: Language): StoredGame {
  return {
    appId: row.app_id,
    slug: `store-${row.app_id}`,
    title: lang === "ru" ? (row.title_ru ?? row.title) : row.title,
    headerImage: row.header_image,
    shortDescription: lang === "ru" ? row.short_description : (row.short_description_en ?? row.short_description),
    genres: row.genres,
    price: toPrice(row.price_initial, row.price_final, row.discount_percent),
    comingSoon: row.coming_soon,
    hasGear: row.has_gear,
  };
}

/** Words of a search text, lower-cased; punctuation and tsquery operators are dropped. */
export function searchTerms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_SEARCH_TERMS).map((t) => t.slice(0, 64));
}

/**
 * Every word must match, as a prefix (search as you type), in any of the three dictionaries:
 * simple (exact words, names), english and russian (stems). With `weight` "A", only in a name.
 */
function tsQuery(terms: string[], weight: "" | "A" = ""): SQL {
  const parts = terms.map((term) => {
    const prefix = `${term}:*${weight}`;
    return sql`(to_tsquery('simple', ${prefix}) || to_tsquery('english', ${prefix}) || to_tsquery('russian', ${prefix}))`;
  });
  return sql.join(parts, sql` && `);
}

/** Shorter texts share too few trigrams with anything for similarity to mean a thing. */
const MIN_FUZZY_LENGTH = 3;
/** Typos and transliterations are looked for when the words themselves find fewer games than this. */
const FUZZY_BELOW = 20;

/**
 * The search's condition and rank. A game matches by its words (prefixes, any dictionary); with
 * `fuzzy`, also when its names (spelt in Latin) hold a part similar to the text spelt in Latin
 * (pg_trgm word similarity at the default threshold 0.6, through the trigram index). Rank: 2 for a
 * name equal to the text, 1 for every word in a name, 0 for the words elsewhere (descriptions),
 * below 0 (similarity − 1) for a similar name only; within a rank the store's popularity decides
 * (the caller's order). Every part is read from the row the match brings anyway: no text ranking
 * over every match, and no subquery per row.
 */
export function searchCondition(text: string, { fuzzy }: { fuzzy: boolean }): { where: SQL; rank: SQL } | null {
  const terms = searchTerms(text);
  if (terms.length === 0) return null;
  const q = tsQuery(terms);
  const exact = text.trim().toLowerCase();
  // lower() keeps a name's length in characters (it maps them one for one under the libc and C
  // collations), so a name of another length is told apart without lower-casing it. Every match of
  // the words pays this test: at 100,000 games the two titles' part of it fell from 0.35 to 0.10 ms.
  const length = [...exact].length;
  const named = sql`CASE WHEN (char_length(g.title) = ${length} AND lower(g.title) = ${exact})
                           OR (char_length(g.title_ru) = ${length} AND lower(g.title_ru) = ${exact})
                           OR ${exact} = ANY (lower(g.alt_titles::text)::text[]) THEN 2
                         WHEN g.search @@ (${tsQuery(terms, "A")}) THEN 1 ELSE 0 END`;
  const latin = toLatin(terms.join(" "));
  if (!fuzzy || latin.length < MIN_FUZZY_LENGTH) return { where: sql`g.search @@ (${q})`, rank: sql`(${named})::real` };
  return {
    where: sql`(g.search @@ (${q}) OR ${latin} <% g.search_names)`,
    rank: sql`(CASE WHEN g.search @@ (${q}) THEN ${named} ELSE word_similarity(${latin}, g.search_names) - 1 END)::real`,
  };
}

const GAME_COLUMNS = sql`g.app_id, g.title, g.title_ru, g.short_description, g.short_description_en, g.header_image,
  g.genres, g.coming_soon, p.price_initial, p.price_final, p.discount_percent,
  EXISTS (SELECT 1 FROM gear_items gi WHERE gi.platform_app_id = g.app_id) AS has_gear`;
/** The edition whose price the catalog shows. */
const MAIN_PACKAGE = sql`LEFT JOIN packages p ON p.app_id = g.app_id AND p.is_main`;

/**
 * A page as the cache keeps it: the games, and the API's JSON text of the page cut where the origin
 * goes (generated covers' URLs), so a hit answers with a join instead of serialising 20 games again.
 */
interface CachedPage {
  catalog: StoredCatalog;
  json: string[];
  /** The text for the origin last asked for, encoded: nearly every request names the same host. */
  body?: { origin: string; bytes: Uint8Array<ArrayBuffer> };
}

// Never in real data: PostgreSQL text cannot hold U+0000, so the mark cannot collide with a title.
const ORIGIN_MARK = "\u0000origin\u0000";
const ORIGIN_MARK_JSON = JSON.stringify(ORIGIN_MARK).slice(1, -1);

function cachedPage(catalog: StoredCatalog): CachedPage {
  const marked = { games: catalog.games.map((game) => withOrigin(game, ORIGIN_MARK)), total: catalog.total };
  return { catalog, json: JSON.stringify(marked).split(ORIGIN_MARK_JSON) };
}

// Pages are kept without the origin (which a client names in Host), so hosts cannot multiply the
// entries (each keeps the bytes of one origin at a time); the bytes bound is on their JSON size,
// three times over (the games, the text and its encoding), a fair estimate of what they hold.
const catalogCache = new TtlCache<CachedPage>(env.CATALOG_CACHE_TTL_MS, {
  maxEntries: 5000,
  maxBytes: env.CATALOG_CACHE_MAX_BYTES,
  sizeOf: (page) => 6 * page.json.reduce((n, part) => n + part.length, 0),
});
// Totals do not depend on the page, so paging through one filter counts once.
const totalCache = new TtlCache<number>(env.CATALOG_CACHE_TTL_MS, { maxEntries: 5000 });
const genreCache = new TtlCache<string[]>(env.CATALOG_CACHE_TTL_MS, { maxEntries: 1 });
const regionCache = new TtlCache<string[]>(env.CATALOG_CACHE_TTL_MS, { maxEntries: 1 });

/** A page of the gift catalog; identical queries within CATALOG_CACHE_TTL_MS share one database read. */
export async function listCatalog(db: Database, query: CatalogQuery, origin: string): Promise<CatalogResponse> {
  const { catalog } = await catalogPage(db, query);
  return { games: catalog.games.map((game) => withOrigin(game, origin)), total: catalog.total };
}

/**
 * The same page as the API's JSON text (`CatalogResponse`) in UTF-8, from the cache's own copy of
 * it: encoded once per page and origin rather than once per response.
 */
export async function listCatalogBody(db: Database, query: CatalogQuery, origin: string): Promise<Uint8Array<ArrayBuffer>> {
  const page = await catalogPage(db, query);
  if (page.body?.origin !== origin) page.body = { origin, bytes: utf8.encode(jsonFor(page, origin)) };
  return page.body.bytes;
}

const utf8 = new TextEncoder();

function jsonFor({ json }: CachedPage, origin: string): string {
  return json.length === 1 ? json[0]! : json.join(JSON.stringify(origin).slice(1, -1));
}

function catalogPage(db: Database, query: CatalogQuery): Promise<CachedPage> {
  const key = JSON.stringify([
    query.page,
    query.limit,
    query.genre?.toLowerCase(),
    query.steamCategory,
    query.query,
    query.giftableTo,
    query.sort,
    query.lang,
  ]);
  return catalogCache.get(key, async () => cachedPage(await readCatalog(db, query)));
}

/** What the catalog cache holds in this process (for tests and diagnostics). */
export function catalogCacheStats(): { entries: number; bytes: number } {
  return catalogCache.stats();
}

async function readCatalog(db: Database, query: CatalogQuery): Promise<StoredCatalog> {
  // Staff hid it (/admin/catalog): not listed; catalog_counts and giftable_games leave it out too.
  const where: SQL[] = [sql`NOT g.hidden`];
  if (query.genre) where.push(sql`g.genre_keys @> ARRAY[${query.genre.toLowerCase()}]::text[]`);
  switch (query.steamCategory) {
    case "specials":
      where.push(sql`EXISTS (SELECT 1 FROM packages d WHERE d.app_id = g.app_id AND d.is_main AND d.discount_percent > 0)`);
      break;
    case "coming_soon":
      where.push(sql`g.coming_soon`);
      break;
    case "top_sellers":
    case "new_releases":
      where.push(sql`g.featured @> ARRAY[${query.steamCategory}]::text[]`);
      break;
  }
  if (query.query !== undefined) return readSearch(db, query, where, query.query);
  const offset = query.page * query.limit;
  const start = await checkpointStart(db, query, offset);
  if (start) where.push(start.where);
  const whereSql = sql`WHERE ${sql.join(where, sql` AND `)}`;
  const source = sourceOf(query);
  const countKey = JSON.stringify([query.genre?.toLowerCase(), query.steamCategory, query.giftableTo]);
  // The page's ids come from the narrow sort index first; only those rows are joined and read,
  // so a deep page does not drag 100,000 wide rows through the join.
  const [page, total] = await Promise.all([
    readPage(db, query, { source, whereSql, rank: sql`0::real`, offset: start ? start.offset : offset }),
    totalCache.get(countKey, () => countListing(db, query)),
  ]);
  return { games: page.map((row) => toStoredGame(row, query.lang)), total };
}

/**
 * A search: its matches ranked (searchCondition) and counted in one pass over them (a window
 * count beside the page, instead of a second scan); typos and transliterations are looked for in a
 * second pass only when the words found fewer than FUZZY_BELOW games, since the trigram check costs
 * more than the words' own.
 */
async function readSearch(db: Database, query: CatalogQuery, filters: SQL[], text: string): Promise<StoredCatalog> {
  const offset = query.page * query.limit;
  const source = sourceOf(query);
  const pass = async (fuzzy: boolean) => {
    const search = searchCondition(text, { fuzzy });
    if (!search) return { rows: [] as (GameRow & { total: number })[], total: 0 };
    const whereSql = sql`WHERE ${sql.join([...filters, search.where], sql` AND `)}`;
    const rows = await readPage(db, query, { source, whereSql, rank: search.rank, offset, counted: true });
    // A page past the last match brings no row to read the count from.
    const total =
      rows[0]?.total ?? (offset === 0 ? 0 : await countRows(db, sql`SELECT count(*)::int AS total FROM ${source.from} ${whereSql}`));
    return { rows, total: Number(total) };
  };
  let found = await pass(false);
  if (found.total < FUZZY_BELOW) found = await pass(true);
  return { games: found.rows.map((row) => toStoredGame(row, query.lang)), total: found.total };
}

type Source = { from: SQL; order: SQL; tiered: boolean };

/**
 * giftableTo walks the region's slice of giftable_games in catalog order (it copies sort_rank),
 * joining games only for the other filters: an indexed join, nothing computed per request. Every
 * game giftable to a region is released and priced: there is nothing to put last (`tiered`).
 */
function sourceOf(query: CatalogQuery): Source {
  return query.giftableTo === undefined
    ? { from: sql`games g`, order: sql`g.sort_rank, g.app_id`, tiered: true }
    : {
        from: sql`giftable_games gg JOIN games g ON g.app_id = gg.app_id AND gg.region = ${query.giftableTo}`,
        order: sql`gg.sort_rank, gg.app_id`,
        tiered: false,
      };
}

/** One page's rows: ids and ranks from the narrow scan, then only those games read whole. */
async function readPage<Counted extends boolean = false>(
  db: Database,
  query: CatalogQuery,
  { source, whereSql, rank, offset, counted }: { source: Source; whereSql: SQL; rank: SQL; offset: number; counted?: Counted },
): Promise<(GameRow & { total: number })[]> {
  // Counted in relevance order: the matches are ranked into narrow rows first (OFFSET 0 keeps the
  // planner from merging the two), so the window count holds ids and ranks, not the wide rows (with
  // their text vectors) that spilled to disk at a million games.
  const hits =
    counted && query.sort === "relevance"
      ? sql`SELECT g.app_id, g.rank, count(*) OVER () AS total
            FROM (SELECT g.app_id, ${rank} AS rank, g.sort_tier, g.sort_rank
                  FROM ${source.from} ${whereSql} OFFSET 0) AS g
            ORDER BY ${catalogOrder(query.sort, sql`g.rank`, sql`g.sort_rank, g.app_id`, source.tiered)}`
      : sql`SELECT g.app_id, ${rank} AS rank${counted ? sql`, count(*) OVER () AS total` : sql``}
            FROM ${source.from} ${orderJoin(query.sort)} ${whereSql}
            ORDER BY ${catalogOrder(query.sort, sql`rank`, source.order, source.tiered)}`;
  const { rows } = await db.execute<GameRow & { total: number }>(
    sql`SELECT ${GAME_COLUMNS}${counted ? sql`, hit.total` : sql``}
        FROM (${hits} LIMIT ${query.limit} OFFSET ${offset}) AS hit
        JOIN games g ON g.app_id = hit.app_id ${MAIN_PACKAGE}
        ORDER BY ${catalogOrder(query.sort, sql`hit.rank`, sql`g.sort_rank, g.app_id`, source.tiered)}`,
  );
  return rows;
}

/** Listings are numbered every CHECKPOINT_EVERY games (drizzle/0021_catalog_checkpoints.sql). */
const CHECKPOINT_EVERY = 128;

/**
 * A deep page of a listing with checkpoints (the default order of the whole store, one genre, one
 * category, or one gift region) starts at the last checkpoint at or before its offset: a condition
 * that the index range starts from, and what is left of the offset after it (at most 127). Null for
 * the first pages, for listings without checkpoints (searches, other orders, combined filters) and
 * when there is none yet (a catalog written since the last refresh): those walk their offset. The
 * checkpoint is read first, so the page's query carries plain values the planner can estimate (with
 * the checkpoint inside it, it planned for a huge range and reached for parallel workers).
 */
async function checkpointStart(db: Database, query: CatalogQuery, offset: number): Promise<{ where: SQL; offset: number } | null> {
  if (offset < CHECKPOINT_EVERY || query.query !== undefined || query.sort !== "relevance") return null;
  const scope = query.giftableTo ?? "*";
  const genre = query.genre?.toLowerCase() ?? "*";
  const category = query.steamCategory ?? "*";
  const kept = scope === "*" ? genre === "*" || category === "*" : genre === "*" && category === "*";
  if (!kept) return null;
  const { rows } = await db.execute<{ n: number; sort_tier: number; sort_rank: number; app_id: number }>(
    sql`SELECT n, sort_tier, sort_rank, app_id FROM catalog_checkpoints
        WHERE scope = ${scope} AND genre = ${genre} AND category = ${category} AND n <= ${offset}
        ORDER BY n DESC LIMIT 1`,
  );
  const at = rows[0];
  if (!at) return null;
  const where =
    scope === "*"
      ? sql`(g.sort_tier, g.sort_rank, g.app_id) >= (${at.sort_tier}, ${at.sort_rank}, ${at.app_id})`
      : sql`(gg.sort_rank, gg.app_id) >= (${at.sort_rank}, ${at.app_id})`;
  return { where, offset: offset - at.n };
}

/**
 * The catalog's order for `sort`. Games that cannot be bought yet (games.sort_tier 1: not released,
 * or no price and not free to play) come after the rest in every order (`tiered`; a giftableTo slice
 * has none), so they never fill the first screen. `relevance` is the search's own rank (an exact
 * name, then every word in a name, then the rest, typos included) when searching, and the store's
 * popularity otherwise: (sort_tier, sort_rank, app_id), an index walk. The other sorts fall back on
 * it. Popularity and appId (`popularity`) break ties, so pages never repeat or skip a game. `rank`
 * names the search rank where the order is used (the inner select's column, or the page's).
 */
function catalogOrder(sort: CatalogSort, rank: SQL, popularity: SQL, tiered: boolean): SQL {
  const tier = tiered ? sql`g.sort_tier, ` : sql``;
  if (sort === "relevance") return sql`${rank} DESC, ${tier}${popularity}`;
  const first = {
    price: sql`p.price_final ASC NULLS LAST`,
    discount: sql`coalesce(p.discount_percent, 0) DESC`,
    newest: sql`g.release_date DESC NULLS LAST`,
  }[sort];
  return sql`${tier}${first}, ${rank} DESC, ${popularity}`;
}

/** The main edition, joined only for the orders that read its price. */
const orderJoin = (sort: CatalogSort): SQL => (sort === "price" || sort === "discount" ? MAIN_PACKAGE : sql``);

/**
 * A listing's total (no search) comes from catalog_counts (giftable_counts with giftableTo), the
 * per-filter totals every catalog write refreshes.
 */
async function countListing(db: Database, query: CatalogQuery): Promise<number> {
  const genre = query.genre?.toLowerCase() ?? "*";
  const category = query.steamCategory ?? "*";
  return countRows(
    db,
    query.giftableTo === undefined
      ? sql`SELECT total FROM catalog_counts WHERE genre = ${genre} AND category = ${category}`
      : sql`SELECT total FROM giftable_counts WHERE region = ${query.giftableTo} AND genre = ${genre} AND category = ${category}`,
  );
}

async function countRows(db: Database, statement: SQL): Promise<number> {
  const { rows } = await db.execute<{ total: number }>(statement);
  return Number(rows[0]?.total ?? 0);
}

export function clearCatalogCache(): void {
  catalogCache.clear();
  totalCache.clear();
  genreCache.clear();
  regionCache.clear();
}

interface PackageRow extends Record<string, unknown> {
  package_id: number;
  title: string;
  is_main: boolean;
  price_initial: number | null;
  price_final: number | null;
  discount_percent: number;
}

/** One game with its editions and gift regions; `game_not_found` when the store does not have it (or the id is no appId). */
export async function getGameOrThrow(db: Database, appIdParam: number | string, lang: Language, origin: string): Promise<GameDetails> {
  if (typeof appIdParam === "string" && !isAppId(appIdParam))
    throw new DomainError("game_not_found", { appId: appIdParam.slice(0, 64) }, "appId");
  const appId = Number(appIdParam);
  const [games, packages, offers] = await Promise.all([
    db.execute<GameRow & { gift_regions: string[] }>(
      sql`SELECT ${GAME_COLUMNS}, g.gift_regions FROM games g ${MAIN_PACKAGE} WHERE g.app_id = ${appId} AND NOT g.hidden`,
    ),
    db.execute<PackageRow>(
      sql`SELECT package_id, title, is_main, price_initial, price_final, discount_percent
          FROM packages WHERE app_id = ${appId} ORDER BY is_main DESC, position, package_id`,
    ),
    editionOffers(db, appId),
  ]);
  const row = games.rows[0];
  if (!row) throw new DomainError("game_not_found", { appId }, "appId");
  const main = packages.rows.find((p) => p.is_main);
  const mainOffers = (main && offers.get(main.package_id)) ?? new Map<string, RegionOffer>();
  return {
    ...toCatalogGame(row, lang, origin),
    packages: packages.rows.map((p) => ({
      packageId: p.package_id,
      title: p.title,
      isMain: p.is_main,
      price: toPrice(p.price_initial, p.price_final, p.discount_percent),
      refusedRegions: refusedRegions(row.gift_regions, p.price_final, offers.get(p.package_id)),
    })),
    giftRegions: row.gift_regions,
    giftRegionPrices: row.gift_regions.map((region) => giftRegionPrice(row, region, mainOffers.get(region))),
  };
}

/** The regions an edition on sale cannot be gifted to, by the regional half of the gift rule. */
function refusedRegions(
  giftRegions: readonly string[],
  storePrice: number | null,
  offers: Map<string, RegionOffer> | undefined,
): GamePackage["refusedRegions"] {
  if (storePrice === null) return [];
  return giftRegions.flatMap((region) => {
    const refusal = regionRefusal({ storePrice, offer: offers?.get(region), maxGapPercent: env.GIFT_PRICE_GAP });
    return refusal ? [{ region, refusal }] : [];
  });
}

/**
 * The main edition in one gift region: its local price and the reason a gift there would be
 * refused, by giftRefusal (the rule verify applies), so an unreleased or unpriced game is refused
 * in every region as its buy box says.
 */
function giftRegionPrice(game: GameRow & { gift_regions: string[] }, region: string, offer: RegionOffer | undefined): GiftRegionPrice {
  const storePrice = game.price_final;
  const reasons = giftRefusals(
    { comingSoon: game.coming_soon, priced: storePrice !== null, giftRegions: game.gift_regions },
    region,
    storePrice === null ? undefined : { storePrice, offer, maxGapPercent: env.GIFT_PRICE_GAP },
  );
  // region_not_giftable cannot come up: the region is one of the game's own.
  const refusal = GIFT_REGION_REFUSALS.find((r) => reasons.includes(r)) ?? null;
  const converted =
    offer?.amount != null && offer.rubMicrosPerUnit !== null ? convertedKopecks(offer.amount, offer.rubMicrosPerUnit) : null;
  return { region, currency: offer?.currency ?? null, amount: offer?.amount ?? null, convertedAmount: converted, refusal };
}

/** The game's original title, or null when the store does not have it or hides it (its covers are then not found, like its page). */
export async function getGameTitle(db: Database, appId: number): Promise<string | null> {
  const { rows } = await db.execute<{ title: string }>(sql`SELECT title FROM games WHERE app_id = ${appId} AND NOT hidden`);
  return rows[0]?.title ?? null;
}

/** Every genre in the catalog (lower-cased, as the genre filter matches), most games first. */
export function listGenres(db: Database): Promise<string[]> {
  return genreCache.get("genres", async () => {
    const { rows } = await db.execute<{ genre: string }>(
      sql`SELECT genre FROM catalog_counts WHERE category = '*' AND genre <> '*' ORDER BY total DESC, genre`,
    );
    return rows.map((row) => row.genre);
  });
}

/** Every region some game can be gifted to now, most games first: the catalog's region choices. */
export function listGiftRegions(db: Database): Promise<string[]> {
  return regionCache.get("regions", async () => {
    const { rows } = await db.execute<{ region: string }>(
      sql`SELECT region FROM giftable_counts WHERE genre = '*' AND category = '*' ORDER BY total DESC, region`,
    );
    return rows.map((row) => row.region);
  });
}
