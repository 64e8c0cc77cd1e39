import { describe, expect, it } from "vitest";
import { gameAvailability, giftRefusal } from "./availability";

const priced = { packageId: 1, title: "Main", isMain: true, price: { paymentAmount: 100, paymentCurrency: "RUB" } };
const game = (over: Partial<Parameters<typeof gameAvailability>[0]> = {}) =>
  ({ comingSoon: false, packages: [priced], giftRegions: ["RU"], ...over }) as Parameters<typeof gameAvailability>[0];

describe("gameAvailability", () => {
  it("is available with a price and a region", () => expect(gameAvailability(game())).toBeNull());
  it("names the first reason a shopper should hear", () => {
    expect(gameAvailability(game({ comingSoon: true, packages: [], giftRegions: [] }))).toBe("game_not_released");
    expect(gameAvailability(game({ packages: [{ price: null }] as never, giftRegions: [] }))).toBe("game_not_priced");
    expect(gameAvailability(game({ giftRegions: [] }))).toBe("region_not_giftable");
  });
});

describe("giftRefusal for one region", () => {
  const base = { comingSoon: false, priced: true, giftRegions: ["RU", "KZ"] };
  it("allows a listed region", () => expect(giftRefusal(base, "KZ")).toBeNull());
  it("refuses a region not listed", () => expect(giftRefusal(base, "TR")).toBe("region_not_giftable"));
  it("puts release and price before the region", () => {
    expect(giftRefusal({ ...base, comingSoon: true }, "TR")).toBe("game_not_released");
    expect(giftRefusal({ ...base, priced: false }, "TR")).toBe("game_not_priced");
  });
});
