import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_CATEGORIES, type StoreCategory } from "@/lib/schemas/catalog";
import { clearCatalogCache, listCatalog } from "@/lib/services/catalog";
import { refreshCatalogCounts, upsertGames } from "@/lib/services/catalog-write";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.close());

const CATEGORY_SQL: Record<StoreCategory, ReturnType<typeof sql>> = {
  specials: sql`EXISTS (SELECT 1 FROM packages p WHERE p.app_id = g.app_id AND p.is_main AND p.discount_percent > 0)`,
  coming_soon: sql`g.coming_soon`,
  top_sellers: sql`'top_sellers' = ANY (g.featured)`,
  new_releases: sql`'new_releases' = ANY (g.featured)`,
};

/** The catalog's filter semantics, written out independently of the service. */
async function liveCount(genre: string | undefined, category: StoreCategory | undefined): Promise<number> {
  const conditions = [sql`true`];
  if (genre) conditions.push(sql`EXISTS (SELECT 1 FROM unnest(g.genres) x WHERE lower(x) = lower(${genre}))`);
  if (category) conditions.push(CATEGORY_SQL[category]);
  const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM games g WHERE ${sql.join(conditions, sql` AND `)}`);
  return rows[0]!.n;
}

async function total(genre?: string, steamCategory?: StoreCategory): Promise<number> {
  const res = await listCatalog(t.db, { page: 0, limit: 1, genre, steamCategory, sort: "relevance", lang: "ru" }, "http://test");
  return res.total;
}

describe("catalog totals", () => {
  it("equal a live count for every genre and category combination", async () => {
    const { rows } = await t.db.execute<{ genre: string }>(sql`SELECT DISTINCT unnest(genres) AS genre FROM games ORDER BY 1`);
    const genres = [undefined, ...rows.map((r) => r.genre), "NoSuchGenre"];
    for (const genre of genres) {
      for (const category of [undefined, ...STORE_CATEGORIES]) {
        expect({ genre, category, total: await total(genre?.toUpperCase(), category) }).toEqual({
          genre,
          category,
          total: await liveCount(genre, category),
        });
      }
    }
  });

  it("follow catalog writes", async () => {
    const before = await liveCount("Racing", "specials");
    await upsertGames(t.db, [
      {
        appId: 77_777_770,
        title: "Drift Kings",
        titleRu: null,
        shortDescription: "Гонки по ночному городу.",
        shortDescriptionEn: "Night city racing.",
        headerImage: null,
        genres: ["Racing"],
        featured: [],
        comingSoon: false,
        releaseDate: "2026-01-01",
        sortRank: 1_000_000,
        giftRegions: ["RU"],
        packages: [
          { packageId: 777_777_701, title: "Drift Kings", isMain: true, priceInitial: 99_900, priceFinal: 49_900, discountPercent: 50 },
        ],
      },
    ]);
    await refreshCatalogCounts(t.db);
    clearCatalogCache();
    expect(await total("racing", "specials")).toBe(before + 1);
    expect(await liveCount("Racing", "specials")).toBe(before + 1);
  });

  it("count search matches live", async () => {
    const res = await listCatalog(t.db, { page: 0, limit: 5, query: "portal", sort: "relevance", lang: "en" }, "http://test");
    const { rows } = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM games WHERE search @@ to_tsquery('simple', 'portal:*')`,
    );
    expect(res.total).toBe(rows[0]!.n);
    expect(res.games[0]?.appId).toBe(620);
  });
});
