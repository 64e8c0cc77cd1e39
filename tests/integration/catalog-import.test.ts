import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importAppdetails } from "@/lib/catalog/import-appdetails";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

const FIXTURE = path.resolve(__dirname, "../fixtures/appdetails-sample.json");
const IMPORTED = [440, 1086940, 1174180, 3164330];

describe.sequential("importing appdetails into the demo catalog", () => {
  let t: TestDatabase;
  let text: string;
  let rankBefore: number;

  const gameRows = async () =>
    (
      await t.pool.query(
        `SELECT app_id, title, title_ru, short_description, short_description_en, header_image, genres, genre_keys,
                featured, coming_soon, release_date::text, sort_rank, gift_regions
         FROM games WHERE app_id = ANY($1) ORDER BY sort_rank`,
        [IMPORTED],
      )
    ).rows;
  const packageRows = async (appId: number) =>
    (
      await t.pool.query(
        `SELECT package_id, title, is_main, position, price_initial, price_final, discount_percent
         FROM packages WHERE app_id = $1 ORDER BY position`,
        [appId],
      )
    ).rows;

  beforeAll(async () => {
    t = await createTestDatabase();
    text = await fs.readFile(FIXTURE, "utf8");
    rankBefore = (await t.pool.query("SELECT max(sort_rank) AS rank FROM games")).rows[0].rank;
  });

  afterAll(async () => {
    await t?.close();
  });

  it("adds the file's games after the existing ones and reports what it skipped", async () => {
    const summary = await importAppdetails(t.db, text, { defaultGiftRegions: ["RU", "KZ"] });
    expect(summary).toMatchObject({ imported: 4, updated: 0, warnings: { total: 0 } });
    expect(summary.skipped.first.map((s) => ("app" in s.entry ? s.entry.app : null)).sort()).toEqual(["2138330", "999999"]);

    const rows = await gameRows();
    expect(rows.map((r) => r.app_id).sort((a, b) => a - b)).toEqual(IMPORTED);
    expect(rows.map((r) => r.sort_rank)).toEqual([rankBefore + 1, rankBefore + 2, rankBefore + 3, rankBefore + 4]);
    expect(rows.every((r) => r.gift_regions.join() === "RU,KZ" && r.featured.length === 0)).toBe(true);
    expect((await t.pool.query("SELECT count(*)::int AS n FROM games WHERE app_id = 2138330")).rows[0].n).toBe(0);
  });

  it("stores text, genres and prices as mapped", async () => {
    const rdr2 = (await gameRows()).find((r) => r.app_id === 1174180);
    expect(rdr2).toMatchObject({
      title: "Red Dead Redemption 2",
      title_ru: null,
      short_description_en: null,
      header_image: expect.stringContaining("/apps/1174180/header.jpg"),
      genres: ["Action", "Adventure"],
      genre_keys: ["action", "adventure"],
      coming_soon: false,
      release_date: "2019-12-05",
    });
    expect(rdr2!.short_description).toMatch(/^Red Dead Redemption 2 — эпическая история/);
    expect(await packageRows(1174180)).toEqual([
      {
        package_id: 218103,
        title: "Red Dead Redemption 2",
        is_main: true,
        position: 0,
        price_initial: 479900,
        price_final: 158400,
        discount_percent: 67,
      },
    ]);
    expect(await packageRows(1086940)).toEqual([
      {
        package_id: 330695,
        title: "Baldur's Gate 3",
        is_main: true,
        position: 0,
        price_initial: 199900,
        price_final: 199900,
        discount_percent: 0,
      },
      {
        package_id: 835215,
        title: "Baldur's Gate 3 - Digital Deluxe Edition",
        is_main: false,
        position: 1,
        price_initial: 249900,
        price_final: 199920,
        discount_percent: 20,
      },
    ]);
    expect(await packageRows(440)).toEqual([
      {
        package_id: 197845,
        title: "Team Fortress 2",
        is_main: true,
        position: 0,
        price_initial: null,
        price_final: null,
        discount_percent: 0,
      },
    ]);
    const outpost = (await gameRows()).find((r) => r.app_id === 3164330);
    expect(outpost).toMatchObject({ coming_soon: true, release_date: null });
  });

  it("makes the imported games findable by the catalog's full-text search", async () => {
    const { rows } = await t.pool.query(
      "SELECT app_id FROM games WHERE search @@ to_tsquery('russian', 'беспощадн:*') AND app_id = ANY($1)",
      [IMPORTED],
    );
    expect(rows.map((r) => r.app_id)).toEqual([1174180]);
  });

  it("updates on a second import, keeping rank, lists and regions", async () => {
    await t.pool.query(
      "UPDATE games SET featured = '{top_sellers}', gift_regions = '{RU,BY}', title_ru = 'Балдурс Гейт 3' WHERE app_id = 1086940",
    );
    const before = await gameRows();
    const changed = text
      .replace('"price_in_cents_with_discount": 199920', '"price_in_cents_with_discount": 249900')
      .replace('"percent_savings": 20', '"percent_savings": 0');

    const summary = await importAppdetails(t.db, changed);
    expect(summary).toMatchObject({ imported: 0, updated: 4 });

    const after = await gameRows();
    expect(after.map((r) => [r.app_id, r.sort_rank])).toEqual(before.map((r) => [r.app_id, r.sort_rank]));
    expect(after.find((r) => r.app_id === 1086940)).toMatchObject({
      featured: ["top_sellers"],
      gift_regions: ["RU", "BY"],
      title_ru: "Балдурс Гейт 3",
    });
    expect((await packageRows(1086940))[1]).toMatchObject({ price_initial: 249900, price_final: 249900, discount_percent: 0 });
  });

  it("replaces an existing game's packages, moving the main edition", async () => {
    const before = (await t.pool.query("SELECT sort_rank, featured FROM games WHERE app_id = 620")).rows[0];
    const portal = {
      "620": {
        success: true,
        data: {
          type: "game",
          name: "Portal 2",
          steam_appid: 620,
          short_description: "The highly anticipated sequel to 2007's Game of the Year.",
          header_image: "https://shared.akamai.steamstatic.com/store_item_assets/steam/apps/620/header.jpg",
          price_overview: { currency: "RUB", initial: 39900, final: 19900, discount_percent: 50 },
          package_groups: [
            {
              subs: [
                { packageid: 7877, option_text: "Portal 2 - 199 pуб.", price_in_cents_with_discount: 19900, percent_savings: 50 },
                { packageid: 6202, option_text: "Portal 2 + Soundtrack - 599 pуб.", price_in_cents_with_discount: 59900 },
              ],
            },
          ],
          genres: [
            { id: "1", description: "Action" },
            { id: "25", description: "Adventure" },
          ],
          release_date: { coming_soon: false, date: "18 Apr, 2011" },
        },
      },
    };
    expect(await importAppdetails(t.db, JSON.stringify(portal))).toMatchObject({ imported: 0, updated: 1 });
    expect((await t.pool.query("SELECT sort_rank, featured FROM games WHERE app_id = 620")).rows[0]).toEqual(before);
    expect((await packageRows(620)).map((p) => [p.package_id, p.is_main, p.price_final])).toEqual([
      [7877, true, 19900],
      [6202, false, 59900],
    ]);
  });

  it("imports a javascript: cover as none, and the database refuses one written any other way", async () => {
    const tf2 = JSON.parse(text)["440"];
    const summary = await importAppdetails(
      t.db,
      JSON.stringify({ "440": { ...tf2, data: { ...tf2.data, header_image: "javascript:alert(1)" } } }),
    );
    expect(summary.warnings.first).toEqual([{ reason: "cover_not_https", details: { appId: 440 } }]);
    expect((await t.pool.query("SELECT header_image FROM games WHERE app_id = 440")).rows[0]).toEqual({ header_image: null });
    await expect(t.pool.query("UPDATE games SET header_image = 'javascript:alert(1)' WHERE app_id = 440")).rejects.toThrow(
      /games_header_image_https/,
    );
  });
});
