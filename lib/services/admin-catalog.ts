import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { games } from "@/lib/db/schema";
import { giftRefusal, type GiftRefusal } from "@/lib/catalog/availability";
import { importAppdetails, type ImportSkip, type ImportWarning, type ParsedAppdetails } from "@/lib/catalog/import-appdetails";
import type { ImportProblemList } from "@/lib/catalog/import-problems";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { recordAudit, type Actor } from "./audit";
import { clearCatalogCache, searchCondition } from "./catalog";
import { refreshCatalogCounts } from "./catalog-write";
import { mainEditionOffers } from "./giftability";

// The back office's catalog (/admin/catalog): finding games, hiding and showing them, their gift
// regions, and importing a file of store `appdetails` responses.

export interface AdminGameRow {
  appId: number;
  title: string;
  titleRu: string | null;
  hidden: boolean;
  comingSoon: boolean;
  giftRegions: string[];
  priceFinal: number | null;
}

interface GameListRow extends Record<string, unknown> {
  app_id: number;
  title: string;
  title_ru: string | null;
  hidden: boolean;
  coming_soon: boolean;
  gift_regions: string[];
  price_final: number | null;
}

const toRow = (r: GameListRow): AdminGameRow => ({
  appId: r.app_id,
  title: r.title,
  titleRu: r.title_ru,
  hidden: r.hidden,
  comingSoon: r.coming_soon,
  giftRegions: r.gift_regions,
  priceFinal: r.price_final,
});

export interface AdminGameFilter {
  /** An app id, or words of a title (the storefront's search). */
  q?: string;
  hiddenOnly?: boolean;
  page: number;
  pageSize: number;
}

/** Games in catalog order (best match first when searching), hidden ones included; paged and counted in the database. */
export async function searchAdminGames(db: Database, filter: AdminGameFilter): Promise<{ games: AdminGameRow[]; total: number }> {
  const where = [];
  let rank = sql`0::real`;
  const q = filter.q?.trim();
  if (q && /^\d{1,10}$/.test(q)) where.push(sql`g.app_id = ${Number(q) <= 2_147_483_647 ? Number(q) : 0}`);
  else if (q) {
    const search = searchCondition(q, { fuzzy: true });
    if (!search) return { games: [], total: 0 };
    where.push(search.where);
    rank = search.rank;
  }
  if (filter.hiddenOnly) where.push(sql`g.hidden`);
  const whereSql = where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
  const [page, count] = await Promise.all([
    db.execute<GameListRow>(sql`
      SELECT g.app_id, g.title, g.title_ru, g.hidden, g.coming_soon, g.gift_regions, p.price_final
      FROM games g LEFT JOIN packages p ON p.app_id = g.app_id AND p.is_main
      ${whereSql}
      ORDER BY ${rank} DESC, g.sort_rank, g.app_id
      LIMIT ${filter.pageSize} OFFSET ${(filter.page - 1) * filter.pageSize}`),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM games g ${whereSql}`),
  ]);
  return { games: page.rows.map(toRow), total: count.rows[0]?.total ?? 0 };
}

export interface RegionVerdict {
  region: string;
  /** Why a gift to the region is refused now, or null when it can be bought. */
  refusal: GiftRefusal | null;
  currency: string | null;
  amount: number | null;
}

/** One game for its admin page, with whether each of its gift regions can be bought now (the gift rule itself). */
export async function getAdminGame(db: Database, appId: number): Promise<{ game: AdminGameRow; verdicts: RegionVerdict[] } | null> {
  const [{ rows }, offers] = await Promise.all([
    db.execute<GameListRow>(sql`
      SELECT g.app_id, g.title, g.title_ru, g.hidden, g.coming_soon, g.gift_regions, p.price_final
      FROM games g LEFT JOIN packages p ON p.app_id = g.app_id AND p.is_main WHERE g.app_id = ${appId}`),
    mainEditionOffers(db, appId),
  ]);
  const row = rows[0];
  if (!row) return null;
  const game = toRow(row);
  const verdicts = game.giftRegions.map((region) => {
    const offer = offers.get(region);
    const refusal = giftRefusal(
      { comingSoon: game.comingSoon, priced: game.priceFinal !== null, giftRegions: game.giftRegions },
      region,
      game.priceFinal === null ? undefined : { storePrice: game.priceFinal, offer, maxGapPercent: env.GIFT_PRICE_GAP },
    );
    return { region, refusal, currency: offer?.currency ?? null, amount: offer?.amount ?? null };
  });
  return { game, verdicts };
}

/** What the catalog derives from games (giftable_games, the totals, this process's page cache) after a change. */
async function catalogChanged(db: Database): Promise<void> {
  await refreshCatalogCounts(db);
  clearCatalogCache();
}

/**
 * Hides a game from the store (not listed, not sold; partners' past intents stay) or shows it
 * again. Hiding twice changes nothing and records nothing.
 */
export async function setGameHidden(db: Database, actor: Actor, appId: number, hidden: boolean): Promise<void> {
  const changed = await db.transaction(async (tx) => {
    const [game] = await tx.select({ hidden: games.hidden }).from(games).where(eq(games.appId, appId)).for("update");
    if (!game) throw new DomainError("game_not_found", { appId }, "appId");
    if (game.hidden === hidden) return false;
    await tx.update(games).set({ hidden }).where(eq(games.appId, appId));
    await recordAudit(tx, actor, {
      action: hidden ? "game.hide" : "game.show",
      targetType: "game",
      targetId: appId,
      before: { hidden: game.hidden },
      after: { hidden },
    });
    return true;
  });
  if (changed) await catalogChanged(db);
}

/** Replaces the regions a game can be gifted to; which of them can be bought now follows (giftable_games). */
export async function setGameRegions(db: Database, actor: Actor, appId: number, regions: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    const [game] = await tx.select({ giftRegions: games.giftRegions }).from(games).where(eq(games.appId, appId)).for("update");
    if (!game) throw new DomainError("game_not_found", { appId }, "appId");
    await tx.update(games).set({ giftRegions: regions }).where(eq(games.appId, appId));
    await recordAudit(tx, actor, {
      action: "game.regions",
      targetType: "game",
      targetId: appId,
      before: { giftRegions: game.giftRegions },
      after: { giftRegions: regions },
    });
  });
  await catalogChanged(db);
}

/** Games written per batch of an upload: small enough for the progress to move, large enough to be quick. */
const IMPORT_BATCH = 50;

export interface CatalogImportResult {
  imported: number;
  updated: number;
  /** The games of the file that were not written, and why (refused by the file's rules or by the database): the first few and the counts. */
  errors: ImportProblemList<ImportSkip>;
  warnings: ImportProblemList<ImportWarning>;
}

/**
 * Imports an uploaded file of store `appdetails` responses (the store's own, cc=ru), read before
 * (`readAppdetails`, so no transaction waits on an upload), reporting progress after each batch,
 * and records the upload with its counts in the audit log. The games and the entry commit in one
 * transaction: an import that fails part way leaves the catalog as it was and no entry, and one
 * that is written always has its entry. A game the database refuses is undone alone (each batch,
 * then each game of a refused batch, has its own savepoint) and counted with the file's problems.
 */
export async function importCatalogFile(
  db: Database,
  actor: Actor,
  file: { name: string; parsed: ParsedAppdetails },
  onProgress: (done: number, total: number) => void | Promise<void>,
): Promise<CatalogImportResult> {
  const result = await db.transaction(async (tx) => {
    const summary = await importAppdetails(tx, file.parsed, { batches: { size: IMPORT_BATCH, onProgress } });
    const counts = { imported: summary.imported, updated: summary.updated, errors: summary.skipped, warnings: summary.warnings };
    await recordAudit(tx, actor, {
      action: "catalog.import",
      targetType: "catalog",
      targetId: file.name.slice(0, 200) || "upload",
      after: { imported: counts.imported, updated: counts.updated, errors: counts.errors.total, warnings: counts.warnings.total },
    });
    return counts;
  });
  clearCatalogCache();
  return result;
}
