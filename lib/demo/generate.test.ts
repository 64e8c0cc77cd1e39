import { describe, expect, it } from "vitest";
import type { GameInput, PackageInput } from "@/lib/services/catalog-write";
import {
  DEMO_ANCHOR_GAMES,
  DEMO_CURRENCY_RATES,
  DEMO_PROMO_CODES,
  REGION_CURRENCIES,
  GIFT_REGIONS,
  STORE_GENRES,
  discountedPrice,
  generateDemoCatalog,
  generateDemoGames,
} from "./generate";

const catalog = generateDemoCatalog({ games: 3000 });
const generated = catalog.games.slice(DEMO_ANCHOR_GAMES.length);
const main = (g: GameInput) => g.packages.find((p) => p.isMain)!;
/** Packages without their regional prices, which have a test of their own. */
const bare = (g: GameInput) => g.packages.map(({ regionPrices: _, ...p }) => p);
const share = (pred: (g: GameInput) => boolean) => generated.filter(pred).length / generated.length;

/** The database's packages_price_consistent check, restated. */
function priceConsistent(p: PackageInput): boolean {
  if (p.priceFinal === null || p.priceInitial === null) return p.priceFinal === p.priceInitial && p.discountPercent === 0;
  return (
    p.priceFinal > 0 &&
    p.priceInitial >= p.priceFinal &&
    p.discountPercent >= 0 &&
    p.discountPercent <= 99 &&
    (p.discountPercent === 0) === (p.priceInitial === p.priceFinal)
  );
}

describe("generateDemoCatalog", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    expect(generateDemoCatalog({ games: 3000 })).toEqual(catalog);
    expect(generateDemoCatalog({ games: 500, seed: 7 })).toEqual(generateDemoCatalog({ games: 500, seed: 7 }));
    expect(generateDemoCatalog({ games: 50, seed: 7 }).games[10]).not.toEqual(catalog.games[10]);
  });

  it("gives game i the same data whatever the catalog size, except the popularity-driven lists", () => {
    const small = generateDemoCatalog({ games: 100 }).games;
    expect(small.map(({ featured: _f, ...g }) => g)).toEqual(catalog.games.slice(0, 100).map(({ featured: _f, ...g }) => g));
  });

  it("has the requested number of games and refuses fewer than the anchors", () => {
    expect(catalog.games).toHaveLength(3000);
    expect(() => generateDemoCatalog({ games: 3 })).toThrow(RangeError);
  });

  it("starts with the anchors, exactly, in rank order", () => {
    expect(catalog.games.slice(0, 7)).toEqual(DEMO_ANCHOR_GAMES);
    const [cyberpunk, portal, hollow, silent, cs2, dota, elden] = catalog.games;
    expect(cyberpunk).toMatchObject({
      appId: 1091500,
      title: "Cyberpunk 2077",
      titleRu: "Cyberpunk 2077",
      genres: ["RPG", "Action", "Open World"],
      featured: ["top_sellers"],
      giftRegions: ["RU", "KZ", "BY", "AM"],
      sortRank: 1,
      headerImage: null,
      packages: [
        { packageId: 10915001, title: "Cyberpunk 2077", isMain: true, priceInitial: 299900, priceFinal: 149950, discountPercent: 50 },
        {
          packageId: 10915002,
          title: "Cyberpunk 2077: Ultimate Edition",
          isMain: false,
          priceInitial: 449900,
          priceFinal: 449900,
          discountPercent: 0,
        },
      ],
    });
    expect(portal).toMatchObject({
      appId: 620,
      genres: ["Action", "Adventure", "Puzzle"],
      featured: ["top_sellers"],
      giftRegions: ["RU", "KZ", "BY", "UA", "AM", "GE", "UZ"],
      packages: [
        { packageId: 6201, title: "Portal 2", isMain: true, priceInitial: 39900, priceFinal: 39900, discountPercent: 0 },
        { packageId: 6202, title: "Portal 2 + Soundtrack", isMain: false, priceInitial: 59900, priceFinal: 59900, discountPercent: 0 },
      ],
    });
    expect(hollow).toMatchObject({
      appId: 999990,
      title: "Hollow Frontier",
      titleRu: "Пограничье пустоты",
      comingSoon: true,
      featured: ["new_releases"],
      giftRegions: ["RU"],
    });
    expect(bare(hollow!)).toEqual([
      { packageId: 9999901, title: "Hollow Frontier", isMain: true, priceInitial: null, priceFinal: null, discountPercent: 0 },
    ]);
    expect(silent).toMatchObject({
      appId: 999991,
      titleRu: "Тихая гавань",
      comingSoon: false,
      genres: ["Horror"],
      giftRegions: ["RU", "KZ"],
    });
    expect(bare(silent!)).toEqual([
      { packageId: 9999911, title: "Silent Harbor", isMain: true, priceInitial: null, priceFinal: null, discountPercent: 0 },
    ]);
    expect(cs2).toMatchObject({
      appId: 730,
      title: "Counter-Strike 2",
      genres: ["Action", "Shooter", "Free to Play"],
      featured: ["top_sellers"],
      giftRegions: [],
    });
    expect(bare(cs2!)).toEqual([
      { packageId: 7301, title: "Counter-Strike 2", isMain: true, priceInitial: null, priceFinal: null, discountPercent: 0 },
    ]);
    expect(dota).toMatchObject({ appId: 570, title: "Dota 2", genres: ["Strategy", "Free to Play"], giftRegions: [] });
    expect(dota!.packages.map((p) => p.packageId)).toEqual([5701]);
    expect(elden).toMatchObject({ appId: 1245620, title: "Elden Ring", genres: ["RPG", "Action"], giftRegions: ["RU", "KZ"] });
    expect(bare(elden!)).toEqual([
      { packageId: 12456201, title: "Elden Ring", isMain: true, priceInitial: 399900, priceFinal: 399900, discountPercent: 0 },
    ]);
  });

  it("hands out copies, so callers cannot change the anchors", () => {
    const [first] = generateDemoGames({ games: 7 });
    first!.packages[0]!.priceFinal = 1;
    expect(DEMO_ANCHOR_GAMES[0]!.packages[0]!.priceFinal).toBe(149950);
  });

  it("has unique app ids, package ids and sort ranks 1..N", () => {
    const appIds = new Set(catalog.games.map((g) => g.appId));
    const packageIds = new Set(catalog.games.flatMap((g) => g.packages.map((p) => p.packageId)));
    expect(appIds.size).toBe(catalog.games.length);
    expect(packageIds.size).toBe(catalog.games.reduce((n, g) => n + g.packages.length, 0));
    expect(catalog.games.map((g) => g.sortRank)).toEqual(catalog.games.map((_, i) => i + 1));
    expect(generated.every((g) => g.appId >= 2_000_000 && g.appId % 10 === 0)).toBe(true);
    expect(Math.max(...packageIds)).toBeLessThan(2 ** 31);
  });

  it("gives every game one main package, 1 to 3 packages, and prices the database accepts", () => {
    for (const g of catalog.games) {
      expect(g.packages.filter((p) => p.isMain)).toHaveLength(1);
      expect(g.packages.length).toBeGreaterThanOrEqual(1);
      expect(g.packages.length).toBeLessThanOrEqual(3);
      for (const p of g.packages) expect(priceConsistent(p), `${p.packageId} ${JSON.stringify(p)}`).toBe(true);
    }
  });

  it("prices like a store: whole roubles, list prices ending in 9", () => {
    const priced = generated.flatMap((g) => g.packages).filter((p) => p.priceInitial !== null);
    expect(priced.every((p) => p.priceInitial! % 100 === 0 && p.priceFinal! % 100 === 0)).toBe(true);
    expect(priced.every((p) => Math.floor(p.priceInitial! / 100) % 10 === 9)).toBe(true);
    for (const p of priced.filter((x) => x.discountPercent > 0)) {
      expect(p.discountPercent).toBeGreaterThanOrEqual(10);
      expect(p.discountPercent).toBeLessThanOrEqual(90);
      expect(p.priceFinal).toBe(discountedPrice(p.priceInitial!, p.discountPercent));
    }
  });

  it("has roughly the intended proportions", () => {
    expect(share((g) => main(g).discountPercent > 0)).toBeGreaterThan(0.12);
    expect(share((g) => main(g).discountPercent > 0)).toBeLessThan(0.18);
    expect(share((g) => g.packages.every((p) => p.priceFinal === null))).toBeGreaterThan(0.02);
    expect(share((g) => g.packages.every((p) => p.priceFinal === null))).toBeLessThan(0.045);
    expect(share((g) => g.comingSoon)).toBeGreaterThan(0.012);
    expect(share((g) => g.comingSoon)).toBeLessThan(0.03);
    for (const list of ["top_sellers", "new_releases"] as const) {
      expect(share((g) => g.featured.includes(list))).toBeGreaterThan(0.015);
      expect(share((g) => g.featured.includes(list))).toBeLessThan(0.06);
    }
    expect(share((g) => g.giftRegions.includes("RU"))).toBeGreaterThan(0.85);
    expect(share((g) => g.titleRu !== g.title)).toBeGreaterThan(0.2);
    expect(share((g) => g.titleRu === g.title)).toBeGreaterThan(0.3);
    expect(share((g) => g.genres.includes("Shooter"))).toBeGreaterThan(0.03);
  });

  it("uses only the store's genres (1 to 3) and gift regions", () => {
    for (const g of catalog.games) {
      expect(g.genres.length).toBeGreaterThanOrEqual(1);
      expect(g.genres.length).toBeLessThanOrEqual(3);
      expect(new Set(g.genres).size).toBe(g.genres.length);
      expect(g.genres.every((genre) => (STORE_GENRES as readonly string[]).includes(genre))).toBe(true);
      expect(g.giftRegions.every((r) => (GIFT_REGIONS as readonly string[]).includes(r))).toBe(true);
      expect(g.releaseDate === null || /^\d{4}-\d{2}-\d{2}$/.test(g.releaseDate)).toBe(true);
    }
  });

  it("writes varied Russian and English descriptions", () => {
    expect(generated.every((g) => /[а-яё]/i.test(g.shortDescription) && /^[A-Z][^а-яё]*$/i.test(g.shortDescriptionEn!))).toBe(true);
    expect(new Set(generated.map((g) => g.shortDescription)).size).toBeGreaterThan(generated.length * 0.8);
    expect(generated.some((g) => g.shortDescription.includes("шутер"))).toBe(true);
  });

  it("includes the anchor gear and promo codes, plus generated gear with some out of stock", () => {
    expect(catalog.gearItems.slice(0, 6)).toEqual([
      { platformAppId: 730, item: "ak47-redline", title: "AK-47 | Redline (Field-Tested)", price: 125000, stock: 25 },
      { platformAppId: 730, item: "awp-asiimov", title: "AWP | Asiimov (Field-Tested)", price: 890000, stock: 0 },
      { platformAppId: 730, item: "sticker-capsule", title: "Sticker Capsule 2", price: 9900, stock: 1000 },
      { platformAppId: 730, item: "bench-stock", title: "Operation Pass", price: 49900, stock: 1_000_000_000 },
      { platformAppId: 570, item: "arcana-juggernaut", title: "Bladeform Legacy (Arcana)", price: 249900, stock: 10 },
      { platformAppId: 570, item: "immortal-treasure", title: "Immortal Treasure I", price: 39900, stock: 5000 },
    ]);
    const extra = catalog.gearItems.slice(6);
    expect(extra.length).toBeGreaterThanOrEqual(24);
    expect(new Set(catalog.gearItems.map((g) => `${g.platformAppId}/${g.item}`)).size).toBe(catalog.gearItems.length);
    expect(new Set(extra.map((g) => g.platformAppId))).toEqual(new Set([730, 570]));
    expect(extra.some((g) => g.stock === 0)).toBe(true);
    expect(catalog.gearItems.every((g) => g.price > 0 && g.stock >= 0 && /^[a-z0-9-]+$/.test(g.item))).toBe(true);
    expect(catalog.promoCodes).toEqual(DEMO_PROMO_CODES);
    expect(catalog.promoCodes.map((p) => p.code)).toEqual([
      "WELCOME10",
      "MINUS300",
      "GEAR15",
      "PORTAL50",
      "EXPIRED2025",
      "USEDUP",
      "LIMITED5",
      "FUTURE30",
    ]);
  });

  it("prices every package in its game's gift regions, in the region's currency, some restricted or far off", () => {
    const rows = generated.flatMap((g) => g.packages.flatMap((p) => (p.regionPrices ?? []).map((r) => ({ g, p, r }))));
    expect(rows.every(({ g, r }) => g.giftRegions.includes(r.region) && r.currency === REGION_CURRENCIES[r.region as "RU"])).toBe(true);
    expect(rows.every(({ r }) => (r.restricted ? r.amount === null : Number.isInteger(r.amount) && r.amount! > 0))).toBe(true);
    expect(rows.every(({ p, r }) => r.region !== "RU" || r.restricted || r.amount === p.priceFinal)).toBe(true);
    const restricted = rows.filter(({ r }) => r.restricted).length / rows.length;
    expect(restricted).toBeGreaterThan(0.02);
    expect(restricted).toBeLessThan(0.08);
    const rates = new Map(DEMO_CURRENCY_RATES.map((r) => [r.currency, r.rubMicrosPerUnit]));
    const gaps = rows.filter(({ r }) => !r.restricted).map(({ p, r }) => (r.amount! * rates.get(r.currency)!) / 1e6 / p.priceFinal! - 1);
    const far = gaps.filter((gap) => Math.abs(gap) > 0.1).length / gaps.length;
    expect(far).toBeGreaterThan(0.04);
    expect(far).toBeLessThan(0.2); // 8 % priced far below, the rest rounding of the cheapest games
    const [cyberpunk] = catalog.games;
    expect(cyberpunk!.packages[0]!.regionPrices).toMatchObject([
      { region: "RU", currency: "RUB", amount: 149950, restricted: false },
      { region: "KZ", currency: "KZT", restricted: false },
      { region: "BY", currency: "USD", restricted: false },
      { region: "AM", currency: "USD", amount: null, restricted: true },
    ]);
  });

  it("streams 100,000 games quickly", () => {
    const started = performance.now();
    let count = 0;
    for (const g of generateDemoGames({ games: 100_000, seed: 3 })) count += g.packages.length > 0 ? 1 : 0;
    expect(count).toBe(100_000);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
