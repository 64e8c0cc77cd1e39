import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "@/lib/demo/seed";
import type { CatalogQuery } from "@/lib/schemas/catalog";
import { clearCatalogCache, listCatalog } from "@/lib/services/catalog";
import { refreshCatalogCounts } from "@/lib/services/catalog-write";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

// Deep pages start from catalog_checkpoints (every 128th game of a listing) instead of walking their
// whole offset. Every page must still be exactly the page an offset walk gives, for each listing
// with checkpoints and for those without; and a deep page must really start near its offset.

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  // Listings long enough for a genre or a category to hold several checkpoints.
  await seedDemoData(t.db, { games: 3000 });
}, 120_000);

afterAll(() => t?.close());

const LIMIT = 20;

/** The listing written out directly: the catalog's default order, filtered as the API filters. */
async function expected(filter: SQL, giftableTo?: string): Promise<number[]> {
  const { rows } = await t.db.execute<{ app_id: number }>(
    giftableTo === undefined
      ? sql`SELECT g.app_id FROM games g WHERE NOT g.hidden AND ${filter} ORDER BY g.sort_tier, g.sort_rank, g.app_id`
      : sql`SELECT g.app_id FROM giftable_games gg JOIN games g ON g.app_id = gg.app_id
            WHERE gg.region = ${giftableTo} AND NOT g.hidden AND ${filter} ORDER BY gg.sort_rank, gg.app_id`,
  );
  return rows.map((r) => r.app_id);
}

async function listAll(query: Partial<CatalogQuery>): Promise<number[]> {
  clearCatalogCache();
  const ids: number[] = [];
  for (let page = 0; ; page++) {
    const res = await listCatalog(t.db, { page, limit: LIMIT, lang: "en", sort: "relevance", ...query }, "http://test");
    ids.push(...res.games.map((g) => g.appId));
    if (res.games.length < LIMIT) return ids;
  }
}

const SPECIALS = sql`EXISTS (SELECT 1 FROM packages d WHERE d.app_id = g.app_id AND d.is_main AND d.discount_percent > 0)`;

describe("deep pages from checkpoints", () => {
  it.each<[string, Partial<CatalogQuery>, SQL, string?]>([
    ["the whole store", {}, sql`true`],
    ["one genre", { genre: "Action" }, sql`g.genre_keys @> ARRAY['action']`],
    ["one category", { steamCategory: "specials" }, SPECIALS],
    ["one gift region", { giftableTo: "RU" }, sql`true`, "RU"],
    [
      "a genre within a category (no checkpoints: an offset walk)",
      { genre: "Action", steamCategory: "specials" },
      sql`g.genre_keys @> ARRAY['action'] AND ${SPECIALS}`,
    ],
    ["a genre within a gift region (no checkpoints)", { genre: "Action", giftableTo: "RU" }, sql`g.genre_keys @> ARRAY['action']`, "RU"],
  ])("%s: every page as an offset walk gives it", async (_name, query, filter, region) => {
    const want = await expected(filter, region);
    expect(want.length).toBeGreaterThan(5 * LIMIT);
    expect(await listAll(query)).toEqual(want);
  });

  it("a deep page's query starts at its checkpoint: it walks at most 127 + a page of the listing", async () => {
    const { rows } = await t.db.execute<{ n: number }>(
      sql`SELECT max(n)::int AS n FROM catalog_checkpoints WHERE scope = '*' AND genre = '*' AND category = '*'`,
    );
    const lastCheckpoint = rows[0]!.n;
    expect(lastCheckpoint).toBeGreaterThanOrEqual(2048);
    // Catch the statement the service sends for a page 100 games past the last checkpoint but one, then
    // run it again under EXPLAIN ANALYZE: the index walk must cover ~120 games, not the offset.
    const sent: { text: string; values: unknown[] }[] = [];
    const query = t.pool.query.bind(t.pool);
    const spy = ((config: unknown, values?: unknown[]) => {
      const text = typeof config === "string" ? config : (config as { text: string }).text;
      const params = values ?? (config as { values?: unknown[] }).values;
      if (text.includes("games g") && text.includes("hit")) sent.push({ text, values: params ?? [] });
      return query(config as string, values as unknown[]);
    }) as typeof t.pool.query;
    t.pool.query = spy;
    try {
      clearCatalogCache();
      const page = Math.floor((lastCheckpoint - 128 + 100) / LIMIT);
      const res = await listCatalog(t.db, { page, limit: LIMIT, lang: "en", sort: "relevance" }, "http://test");
      expect(res.games).toHaveLength(LIMIT);
      expect(res.games.map((g) => g.appId)).toEqual((await expected(sql`true`)).slice(page * LIMIT, page * LIMIT + LIMIT));
    } finally {
      t.pool.query = query;
    }
    expect(sent).toHaveLength(1);
    const plan = await t.pool.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, FORMAT TEXT) ${sent[0]!.text}`, sent[0]!.values);
    const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
    const walked = [
      ...text.matchAll(/Index Scan using games_tier_sort_idx on games g(?:_\d+)? .*?actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/g),
    ];
    expect(walked, text).toHaveLength(1);
    expect(Number(walked[0]![1]), text).toBeGreaterThanOrEqual(LIMIT);
    expect(Number(walked[0]![1]), text).toBeLessThanOrEqual(128 + LIMIT);
  });

  it("a hidden game leaves every listing at once, and after the refresh pages are exact again", async () => {
    const before = await expected(sql`true`);
    const victim = before[10]!;
    await t.db.execute(sql`UPDATE games SET hidden = true WHERE app_id = ${victim}`);
    // Until the refresh, a checkpoint past it is one game off (a page boundary may repeat a game, as
    // the totals are one off): never the hidden game, never an error.
    const stale = await listAll({});
    expect(stale).not.toContain(victim);
    expect(new Set(stale).size).toBe(before.length - 1);
    await refreshCatalogCounts(t.db);
    expect(await listAll({})).toEqual(before.filter((id) => id !== victim));
    await t.db.execute(sql`UPDATE games SET hidden = false WHERE app_id = ${victim}`);
    await refreshCatalogCounts(t.db);
    expect(await listAll({})).toEqual(before);
  });
});
