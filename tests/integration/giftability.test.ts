import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { giftRefusal, type RegionOffer } from "@/lib/catalog/availability";
import { env } from "@/lib/env";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { STORE_CATEGORIES } from "@/lib/schemas/catalog";
import { clearCatalogCache, getGameOrThrow, listCatalog } from "@/lib/services/catalog";
import { refreshCatalogCounts } from "@/lib/services/catalog-write";
import { verifyGift } from "@/lib/services/gifts";
import { refreshGiftability, upsertCurrencyRates } from "@/lib/services/giftability";
import { authenticateToken, issueStorefrontToken, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { refusal } from "@/tests/support/refusal";

// Regional prices and rates: the gift service refuses what the rule refuses, and the catalog's
// giftableTo filter (precomputed in SQL) lists exactly the games the rule lets through.

let t: TestDatabase;
let token: AuthToken;

beforeAll(async () => {
  t = await createTestDatabase();
  const { token: secret } = await issueStorefrontToken(t.db, null);
  const result = await authenticateToken(t.db, secret);
  if (!result.ok) throw new Error("no token");
  token = result.token;
});

afterAll(() => t?.close());

const gift = (item: string, region: string, packageId?: number) =>
  verifyGift(
    t.db,
    token,
    giftVerifyRequestSchema.parse({
      item,
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region, packageId },
      email: "r@example.com",
      fee: "excluded",
    }),
    "http://store.test",
  );

interface Row extends Record<string, unknown> {
  app_id: number;
  genre_keys: string[];
  categories: string[];
  coming_soon: boolean;
  gift_regions: string[];
  price_final: number | null;
  offers: { region: string; currency: string; amount: number | null; restricted: boolean; rate: string | null }[] | null;
}

/** Each game's giftable regions by the TypeScript rule, from the raw rows. */
async function expectedGiftable(): Promise<Map<string, Row[]>> {
  const { rows } = await t.db.execute<Row>(sql`
    SELECT g.app_id, g.genre_keys, g.coming_soon, g.gift_regions, p.price_final,
      g.featured || CASE WHEN g.coming_soon THEN ARRAY['coming_soon'] ELSE ARRAY[]::text[] END
        || CASE WHEN p.discount_percent > 0 THEN ARRAY['specials'] ELSE ARRAY[]::text[] END AS categories,
      (SELECT json_agg(json_build_object('region', rp.region, 'currency', rp.currency, 'amount', rp.amount, 'restricted', rp.restricted,
         'rate', (SELECT r.rub_micros_per_unit::text FROM currency_rates r WHERE r.currency = rp.currency ORDER BY r.as_of DESC LIMIT 1)))
       FROM package_region_prices rp WHERE rp.package_id = p.package_id) AS offers
    FROM games g JOIN packages p ON p.app_id = g.app_id AND p.is_main
    ORDER BY g.sort_rank, g.app_id`);
  const byRegion = new Map<string, Row[]>();
  for (const row of rows) {
    for (const region of new Set(row.gift_regions)) {
      const o = row.offers?.find((x) => x.region === region);
      const offer: RegionOffer | undefined = o && { ...o, rubMicrosPerUnit: o.rate === null ? null : Number(o.rate) };
      const game = { comingSoon: row.coming_soon, priced: row.price_final !== null, giftRegions: row.gift_regions };
      const regional = row.price_final === null ? undefined : { storePrice: row.price_final, offer, maxGapPercent: env.GIFT_PRICE_GAP };
      if (giftRefusal(game, region, regional) === null) byRegion.set(region, [...(byRegion.get(region) ?? []), row]);
    }
  }
  return byRegion;
}

async function listAll(giftableTo: string, filters: { genre?: string; steamCategory?: (typeof STORE_CATEGORIES)[number] } = {}) {
  const ids: number[] = [];
  let total = 0;
  for (let page = 0; ; page++) {
    const res = await listCatalog(t.db, { page, limit: 100, sort: "relevance", lang: "en", giftableTo, ...filters }, "http://store.test");
    total = res.total;
    ids.push(...res.games.map((g) => g.appId));
    if (res.games.length < 100) break;
  }
  return { ids, total };
}

describe("gifts to a region", () => {
  it("are refused where the edition is restricted, with the reason and the region", async () => {
    expect(await refusal(gift("1091500", "AM"))).toMatchObject({
      status: 409,
      reason: "region_restricted",
      param: "target.region",
      message: "package 10915001 of game 1091500 may not be gifted to region AM",
    });
  });

  it("are refused where the converted price is beyond the gap, either way, with the facts", async () => {
    const answer = await refusal(gift("1091500", "BY"));
    expect(answer).toMatchObject({ status: 409, reason: "region_price_gap", param: "target.region" });
    expect(answer.message).toMatch(
      /^package 10915001 of game 1091500 cannot be gifted to region BY: its price there \(\d+\.\d+ USD, \d+(\.\d+)? RUB\) differs from the store's \(1499\.5 RUB\) by more than 10 %$/,
    );
    // Dearer there than here is refused too.
    await t.db.execute(sql`UPDATE package_region_prices SET amount = amount * 2 WHERE package_id = 6201 AND region = 'KZ'`);
    try {
      expect(await refusal(gift("620", "KZ"))).toMatchObject({ reason: "region_price_gap" });
    } finally {
      await t.db.execute(sql`UPDATE package_region_prices SET amount = amount / 2 WHERE package_id = 6201 AND region = 'KZ'`);
    }
  });

  it("go through where the price is close, for each edition on its own", async () => {
    await expect(gift("1091500", "KZ")).resolves.toMatchObject({ code: 201 });
    await expect(gift("1091500", "KZ", 10915002)).resolves.toMatchObject({ code: 201 });
    await expect(gift("620", "RU")).resolves.toMatchObject({ code: 201 });
  });

  it("show on the game page, region by region", async () => {
    const game = await getGameOrThrow(t.db, 1091500, "en", "http://store.test");
    expect(game.giftRegionPrices).toMatchObject([
      { region: "RU", currency: "RUB", amount: 149950, convertedAmount: 149950, refusal: null },
      { region: "KZ", currency: "KZT", refusal: null },
      { region: "BY", currency: "USD", refusal: "region_price_gap" },
      { region: "AM", currency: "USD", amount: null, convertedAmount: null, refusal: "region_restricted" },
    ]);
  });

  it("are refused in every region of a game not yet out or without a price, as verify refuses them", async () => {
    const unreleased = await getGameOrThrow(t.db, 999990, "en", "http://store.test");
    expect(unreleased.giftRegionPrices.map((r) => r.refusal)).toEqual(["game_not_released"]);
    expect(await refusal(gift("999990", "RU"))).toMatchObject({ reason: "game_not_released" });
    const unpriced = await getGameOrThrow(t.db, 999991, "en", "http://store.test");
    expect(unpriced.giftRegionPrices.map((r) => r.refusal)).toEqual(["game_not_priced", "game_not_priced"]);
    expect(await refusal(gift("999991", "KZ"))).toMatchObject({ reason: "game_not_priced" });
  });

  it("show on the game page for each edition, so the form can mark the regions it cannot go to", async () => {
    const game = await getGameOrThrow(t.db, 1091500, "en", "http://store.test");
    expect(game.packages.map((p) => [p.packageId, p.refusedRegions])).toEqual([
      [
        10915001,
        [
          { region: "BY", refusal: "region_price_gap" },
          { region: "AM", refusal: "region_restricted" },
        ],
      ],
      [
        10915002,
        [
          { region: "BY", refusal: "region_price_gap" },
          { region: "AM", refusal: "region_restricted" },
        ],
      ],
    ]);
    // An edition of its own: dearer in KZ than the gap allows, while the main edition is not.
    await t.db.execute(sql`UPDATE package_region_prices SET amount = amount * 2 WHERE package_id = 10915002 AND region = 'KZ'`);
    try {
      const changed = await getGameOrThrow(t.db, 1091500, "en", "http://store.test");
      expect(changed.packages[0]!.refusedRegions.map((r) => r.region)).toEqual(["BY", "AM"]);
      expect(changed.packages[1]!.refusedRegions).toContainEqual({ region: "KZ", refusal: "region_price_gap" });
      // Exactly what verify answers, edition by edition and region by region.
      for (const p of changed.packages)
        for (const region of changed.giftRegions) {
          const refused = p.refusedRegions.find((r) => r.region === region)?.refusal;
          const answer = gift("1091500", region, p.packageId);
          if (refused) expect(await refusal(answer), `${p.packageId} ${region}`).toMatchObject({ reason: refused });
          else await expect(answer, `${p.packageId} ${region}`).resolves.toMatchObject({ code: 201 });
        }
    } finally {
      await t.db.execute(sql`UPDATE package_region_prices SET amount = amount / 2 WHERE package_id = 10915002 AND region = 'KZ'`);
    }
  });

  it("agree on the game page with the catalog's giftableTo for every game and region", async () => {
    const { rows } = await t.db.execute<{ app_id: number; regions: string[] }>(
      sql`SELECT g.app_id, coalesce(array_agg(gg.region) FILTER (WHERE gg.region IS NOT NULL), '{}') AS regions
          FROM games g LEFT JOIN giftable_games gg ON gg.app_id = g.app_id GROUP BY g.app_id`,
    );
    for (const row of rows) {
      const game = await getGameOrThrow(t.db, row.app_id, "en", "http://store.test");
      const giftable = game.giftRegionPrices.filter((r) => r.refusal === null).map((r) => r.region);
      expect({ appId: row.app_id, giftable: giftable.sort() }).toEqual({ appId: row.app_id, giftable: [...new Set(row.regions)].sort() });
    }
  });
});

describe("giftableTo", () => {
  it("agrees with the rule on every game and region of the demo catalog", async () => {
    const expected = await expectedGiftable();
    const { rows } = await t.db.execute<{ region: string; ids: number[] }>(
      sql`SELECT region, array_agg(app_id ORDER BY sort_rank, app_id) AS ids FROM giftable_games GROUP BY region`,
    );
    const actual = new Map(rows.map((r) => [r.region, r.ids]));
    for (const [region, games] of expected)
      expect({ region, ids: actual.get(region) }).toEqual({ region, ids: games.map((g) => g.app_id) });
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  });

  it("lists exactly the giftable games in catalog order, with an exact total, alone and with other filters", async () => {
    clearCatalogCache();
    const expected = await expectedGiftable();
    const kz = expected.get("KZ")!;
    expect(await listAll("KZ")).toEqual({ ids: kz.map((g) => g.app_id), total: kz.length });
    expect(kz.length).toBeLessThan(
      (await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM games WHERE 'KZ' = ANY (gift_regions)`)).rows[0]!.n,
    );
    for (const steamCategory of [undefined, ...STORE_CATEGORIES]) {
      const want = kz.filter((g) => (steamCategory ? g.categories.includes(steamCategory) : true) && g.genre_keys.includes("rpg"));
      expect(await listAll("KZ", { genre: "RPG", steamCategory })).toEqual({ ids: want.map((g) => g.app_id), total: want.length });
    }
    const search = await listCatalog(
      t.db,
      { page: 0, limit: 5, sort: "relevance", lang: "en", giftableTo: "BY", query: "cyberpunk" },
      "http://store.test",
    );
    expect(search).toMatchObject({ games: [], total: 0 }); // over the gap in BY
    expect(await listAll("ZZ")).toEqual({ ids: [], total: 0 });
  });

  it("follows a rate change once the catalog is refreshed", async () => {
    const before = await listAll("TR");
    await upsertCurrencyRates(t.db, [{ currency: "USD", asOf: "2099-01-01", rubMicrosPerUnit: 1_000_000 }]);
    await refreshCatalogCounts(t.db);
    clearCatalogCache();
    try {
      expect(before.total).toBeGreaterThan(0);
      expect(await listAll("TR")).toEqual({ ids: [], total: 0 });
    } finally {
      await t.db.execute(sql`DELETE FROM currency_rates WHERE as_of = '2099-01-01'`);
      await refreshCatalogCounts(t.db);
      clearCatalogCache();
    }
    expect(await listAll("TR")).toEqual(before);
  });

  it("is served from the indexes", async () => {
    await t.db.execute(sql`ANALYZE giftable_games`);
    const { rows } = await t.db.execute<{ "QUERY PLAN": string }>(
      sql`EXPLAIN SELECT g.app_id FROM giftable_games gg JOIN games g ON g.app_id = gg.app_id AND gg.region = 'KZ'
          ORDER BY gg.sort_rank, gg.app_id LIMIT 24`,
    );
    expect(rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/Index (Only )?Scan using giftable_games_region_sort_idx/);
  });
});

describe("refreshing giftable_games", () => {
  it("from two connections at once, neither fails (two back-office changes at the same moment)", async () => {
    // Each refresh empties and refills the table in one transaction; unserialized, the second's
    // DELETE missed the first's new rows and its INSERT met them (duplicate key).
    for (let round = 0; round < 5; round++) {
      const results = await Promise.allSettled([refreshGiftability(t.db), refreshGiftability(t.db), refreshGiftability(t.db)]);
      expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason?.cause ?? ""))).toEqual(
        [],
      );
    }
  });
});
