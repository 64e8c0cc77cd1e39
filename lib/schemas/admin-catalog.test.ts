import { describe, expect, it } from "vitest";
import { gameRegionsSchema, gearStockAdjustSchema, promoState, roublesToKopecks } from "./admin-catalog";

describe("roublesToKopecks", () => {
  it.each([
    ["150", 15000],
    ["150,5", 15050],
    ["150.05", 15005],
    ["1 250,50", 125050],
    ["0", 0],
  ])("reads %s as %i kopecks", (text, kopecks) => expect(roublesToKopecks(text)).toBe(kopecks));

  it.each(["", "-5", "1.234", "abc", "1e3"])("refuses %j", (text) => expect(roublesToKopecks(text)).toBeNull());
});

describe("promoState", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  const base = { disabledAt: null, maxUses: null, uses: 0, validFrom: null, validUntil: null };
  it.each([
    ["active", base],
    ["scheduled", { ...base, validFrom: new Date("2026-07-01") }],
    ["expired", { ...base, validUntil: now }],
    ["used_up", { ...base, maxUses: 3, uses: 3, validUntil: new Date("2020-01-01") }],
    ["disabled", { ...base, disabledAt: new Date("2026-01-01"), maxUses: 1, uses: 1 }],
  ] as const)("is %s", (state, promo) => expect(promoState(promo, now)).toBe(state));
});

describe("the stock and region forms", () => {
  it("takes a signed amount to add and a set of regions, upper-cased, sorted and without repeats", () => {
    expect(gearStockAdjustSchema.parse({ itemId: 1, mode: "add", amount: "-3" }).amount).toBe(-3);
    expect(gearStockAdjustSchema.safeParse({ itemId: 1, mode: "add", amount: "1.5" }).success).toBe(false);
    expect(gameRegionsSchema.parse({ appId: 620, regions: "ru kz,RU" }).regions).toEqual(["KZ", "RU"]);
    expect(gameRegionsSchema.parse({ appId: 620, regions: "" }).regions).toEqual([]);
    expect(gameRegionsSchema.safeParse({ appId: 620, regions: "RUS" }).success).toBe(false);
  });
});
