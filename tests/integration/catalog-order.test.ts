import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "@/lib/demo/seed";
import type { CatalogQuery } from "@/lib/schemas/catalog";
import type { CatalogSort } from "@/lib/schemas/catalog-params";
import { clearCatalogCache, listCatalog } from "@/lib/services/catalog";
import { refreshCatalogCounts, upsertGames } from "@/lib/services/catalog-write";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { catalogGame } from "@/tests/support/games";

// The catalog's sorts, checked against the rule written out here from the games and their main
// editions (not from games.sort_tier), so the stored tier and the live rule must agree.

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.close());

const UNAVAILABLE = sql`(g.coming_soon OR (p.price_final IS NULL AND NOT 'Free to Play' = ANY (g.genres)))`;
const EXPECTED: Record<CatalogSort, ReturnType<typeof sql>> = {
  relevance: sql`${UNAVAILABLE}, g.sort_rank, g.app_id`,
  price: sql`${UNAVAILABLE}, p.price_final ASC NULLS LAST, g.sort_rank, g.app_id`,
  discount: sql`${UNAVAILABLE}, coalesce(p.discount_percent, 0) DESC, g.sort_rank, g.app_id`,
  newest: sql`${UNAVAILABLE}, g.release_date DESC NULLS LAST, g.sort_rank, g.app_id`,
};

async function expected(sort: CatalogSort): Promise<number[]> {
  const { rows } = await t.db.execute<{ app_id: number }>(
    sql`SELECT g.app_id FROM games g LEFT JOIN packages p ON p.app_id = g.app_id AND p.is_main ORDER BY ${EXPECTED[sort]}`,
  );
  return rows.map((r) => r.app_id);
}

/** Every page of a listing, in order. */
async function listAll(query: Partial<CatalogQuery> & { sort: CatalogSort }): Promise<number[]> {
  clearCatalogCache();
  const ids: number[] = [];
  for (let page = 0; ; page++) {
    const res = await listCatalog(t.db, { page, limit: 100, lang: "en", ...query }, "http://test");
    ids.push(...res.games.map((g) => g.appId));
    if (res.games.length < 100) return ids;
  }
}

describe("catalog sorts", () => {
  it.each(["relevance", "price", "discount", "newest"] as const)(
    "%s: games that cannot be bought yet come last, pages in one order",
    async (sort) => {
      const ids = await listAll({ sort });
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(await expected(sort));
    },
  );

  it("by default the first screen holds only games one can buy", async () => {
    clearCatalogCache();
    const { games } = await listCatalog(t.db, { page: 0, limit: 24, sort: "relevance", lang: "en" }, "http://test");
    for (const game of games)
      expect(game.comingSoon || (game.price === null && !game.genres.includes("Free to Play")), game.title).toBe(false);
  });

  it("composes with giftableTo: the same games, cheapest first", async () => {
    const byRank = await listAll({ sort: "relevance", giftableTo: "KZ" });
    const byPrice = await listAll({ sort: "price", giftableTo: "KZ" });
    expect(byRank.length).toBeGreaterThan(0);
    expect([...byPrice].sort()).toEqual([...byRank].sort());
    const { rows } = await t.db.execute<{ app_id: number; price_final: number }>(
      sql`SELECT app_id, price_final FROM packages WHERE is_main AND app_id = ANY(${`{${byPrice.join(",")}}`}::int[])`,
    );
    const price = new Map(rows.map((r) => [r.app_id, r.price_final]));
    const prices = byPrice.map((id) => price.get(id)!);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it("keeps the search's ranking under relevance, and its matches under every sort", async () => {
    const game = (appId: number, title: string, sortRank: number, price: number, comingSoon = false) =>
      catalogGame(appId, title, sortRank, { price, comingSoon });
    // The most popular match is a typo's and the cheapest is unreleased: only the rank puts the exact name first.
    await upsertGames(t.db, [
      game(88_000_001, "Staardew", 1, 30000),
      game(88_000_002, "Stardew Valley Tales", 2, 20000),
      game(88_000_003, "Stardew", 3, 40000),
      game(88_000_004, "Stardew Soon", 4, 100, true),
    ]);
    await refreshCatalogCounts(t.db);
    expect(await listAll({ sort: "relevance", query: "stardew" })).toEqual([88_000_003, 88_000_002, 88_000_004, 88_000_001]);
    expect(await listAll({ sort: "price", query: "stardew" })).toEqual([88_000_002, 88_000_001, 88_000_003, 88_000_004]);
  });

  it("walks the tier index for the default order of a large catalog", async () => {
    await seedDemoData(t.db, { games: 20_000 });
    await t.db.execute(sql`ANALYZE games`);
    const { rows } = await t.db.execute<{ "QUERY PLAN": string }>(
      sql`EXPLAIN SELECT g.app_id FROM games g ORDER BY 0::real DESC, g.sort_tier, g.sort_rank, g.app_id LIMIT 24 OFFSET 2400`,
    );
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan, plan).toContain("games_tier_sort_idx");
    expect(plan, plan).not.toMatch(/Sort/);
  }, 120_000);
});
