import { describe, expect, it } from "vitest";
import { COVER_VERSION } from "@/lib/covers/render-cover";
import type { Database } from "@/lib/db/client";
import { catalogCacheStats, clearCatalogCache, listCatalog, listCatalogBody, searchTerms } from "./catalog";

describe("searchTerms", () => {
  it.each([
    ["Portal 2", ["portal", "2"]],
    ["  Тихая   ГАВАНЬ ", ["тихая", "гавань"]],
    ["Cyberpunk:2077!", ["cyberpunk", "2077"]],
    ["a & b | !c:*", ["a", "b", "c"]],
    ["'); DROP TABLE games; --", ["drop", "table", "games"]],
    ["!!! ... ---", []],
    ["one two three four five six seven eight nine ten", ["one", "two", "three", "four", "five", "six", "seven", "eight"]],
  ])("%j -> %j", (text, terms) => {
    expect(searchTerms(text)).toEqual(terms);
  });

  it("cuts a very long word to 64 characters", () => {
    expect(searchTerms("x".repeat(100))).toEqual(["x".repeat(64)]);
  });
});

describe("listCatalog's cache", () => {
  const row = {
    app_id: 620,
    title: "Portal 2",
    title_ru: null,
    short_description: "",
    short_description_en: null,
    header_image: null,
    genres: [],
    coming_soon: false,
    price_initial: 39900,
    price_final: 39900,
    discount_percent: 0,
  };
  const db = { execute: async () => ({ rows: [row] }) } as unknown as Database;

  it("keeps one entry for one query whatever host the requests name, and answers each with its own origin", async () => {
    clearCatalogCache();
    for (let i = 0; i < 200; i++) {
      const origin = `http://forged-${i}.example`;
      const { games } = await listCatalog(db, { page: 0, limit: 24, sort: "relevance", lang: "en" }, origin);
      expect(games[0]?.headerImage).toBe(`${origin}/covers/620.svg?v=2`);
    }
    expect(catalogCacheStats().entries).toBe(1);
  });

  it("answers the API's JSON as UTF-8 bytes from its cached copy: the same as serialising the page, for any origin, encoded once while the origin stays", async () => {
    clearCatalogCache();
    const withImage = { ...row, app_id: 400, header_image: "https://cdn.example/400.jpg", title_ru: "Портал" };
    const twoGames = { execute: async () => ({ rows: [row, withImage] }) } as unknown as Database;
    const query = { page: 0, limit: 24, sort: "relevance", lang: "ru" } as const;
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    for (const origin of ["http://127.0.0.1:3000", "https://store.example", 'http://odd"host\\']) {
      const text = decode(await listCatalogBody(twoGames, query, origin));
      expect(text).toBe(JSON.stringify(await listCatalog(twoGames, query, origin)));
      expect(JSON.parse(text).games[0].headerImage).toBe(`${origin}/covers/620.svg?v=${COVER_VERSION}`);
    }
    const first = await listCatalogBody(twoGames, query, "https://store.example");
    expect(await listCatalogBody(twoGames, query, "https://store.example")).toBe(first);
    // Another host gets its own bytes, and the first host's come back right after.
    const other = await listCatalogBody(twoGames, query, "http://127.0.0.1:3000");
    expect(decode(other)).toBe(JSON.stringify(await listCatalog(twoGames, query, "http://127.0.0.1:3000")));
    expect(decode(await listCatalogBody(twoGames, query, "https://store.example"))).toBe(decode(first));
    expect(catalogCacheStats().entries).toBe(1);
  });
});
