import { describe, expect, it } from "vitest";
import { gameAvailability } from "./availability";

const priced = { price: { paymentAmount: 129_900 } };
const game = (over: Partial<Parameters<typeof gameAvailability>[0]> = {}) =>
  ({ comingSoon: false, packages: [priced], giftRegions: ["RU"], ...over }) as Parameters<typeof gameAvailability>[0];

describe("gameAvailability", () => {
  it("is available with a price and a region", () => expect(gameAvailability(game())).toBe("available"));
  it("gives the first reason a shopper should hear", () => {
    expect(gameAvailability(game({ comingSoon: true, packages: [], giftRegions: [] }))).toBe("comingSoon");
    expect(gameAvailability(game({ packages: [{ price: null }] as never, giftRegions: [] }))).toBe("noPrice");
    expect(gameAvailability(game({ giftRegions: [] }))).toBe("noRegions");
  });
});
