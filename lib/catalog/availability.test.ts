import { describe, expect, it } from "vitest";
import { convertedKopecks, gameAvailability, giftRefusal, withinPriceGap, type RegionOffer } from "./availability";

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

describe("the price gap", () => {
  const USD = 80_000_000; // 80 RUB per dollar, in millionths
  it("converts minor units at the rate, rounding half up", () => {
    expect(convertedKopecks(1250, USD)).toBe(100_000); // $12.50 = 1,000 RUB
    expect(convertedKopecks(1, 162_000)).toBe(0); // 0.01 KZT
    expect(convertedKopecks(1, 1_500_000)).toBe(2); // 1.5 kopecks rounds up
  });
  it("allows a gap of exactly the limit, either way, and refuses one kopeck more", () => {
    // Store price 1,000 RUB; 10 % is 100 RUB either side.
    expect(withinPriceGap(100_000, 1375, USD, 10)).toBe(true); // 1,100 RUB: +10 % exactly
    expect(withinPriceGap(100_000, 1125, USD, 10)).toBe(true); // 900 RUB: -10 % exactly
    expect(withinPriceGap(100_000, 137_501, 800_000, 10)).toBe(false); // 1,100.008 RUB: just over
    expect(withinPriceGap(100_000, 112_499, 800_000, 10)).toBe(false); // 899.992 RUB: just under
    expect(withinPriceGap(100_000, 1376, USD, 10)).toBe(false);
    expect(withinPriceGap(100_000, 1124, USD, 10)).toBe(false);
  });
  it("takes fractional and zero limits", () => {
    expect(withinPriceGap(100_000, 1340, USD, 7.2)).toBe(true); // +7.2 %
    expect(withinPriceGap(100_000, 1341, USD, 7.2)).toBe(false);
    expect(withinPriceGap(100_000, 1250, USD, 0)).toBe(true);
    expect(withinPriceGap(100_000, 1251, USD, 0)).toBe(false);
  });
  it("stays exact for the largest prices and weakest currencies", () => {
    expect(withinPriceGap(2_000_000_000, 2_000_000_000, 1_000_000, 0)).toBe(true);
    expect(withinPriceGap(2_000_000_000, 2_147_483_647, 999_999_999, 100)).toBe(false);
  });
});

describe("giftRefusal for a region with a local offer", () => {
  const base = { comingSoon: false, priced: true, giftRegions: ["RU", "KZ"] };
  const offer = (over: Partial<RegionOffer> = {}): RegionOffer => ({
    currency: "KZT",
    amount: 617_300,
    restricted: false,
    rubMicrosPerUnit: 162_000,
    ...over,
  });
  const check = (o: RegionOffer | undefined) => ({ storePrice: 100_000, offer: o, maxGapPercent: 10 });
  it("allows a region without regional data, or with a close price", () => {
    expect(giftRefusal(base, "KZ", check(undefined))).toBeNull();
    expect(giftRefusal(base, "KZ", check(offer()))).toBeNull(); // 1,000.03 RUB
  });
  it("refuses a restricted region, and a price beyond the gap either way", () => {
    expect(giftRefusal(base, "KZ", check(offer({ restricted: true, amount: null })))).toBe("region_restricted");
    expect(giftRefusal(base, "KZ", check(offer({ amount: 400_000 })))).toBe("region_price_gap"); // 648 RUB
    expect(giftRefusal(base, "KZ", check(offer({ amount: 800_000 })))).toBe("region_price_gap"); // 1,296 RUB
  });
  it("refuses a price it cannot convert", () =>
    expect(giftRefusal(base, "KZ", check(offer({ rubMicrosPerUnit: null })))).toBe("region_price_gap"));
  it("asks the region list and the game first", () => {
    const restricted = check(offer({ restricted: true, amount: null }));
    expect(giftRefusal(base, "TR", restricted)).toBe("region_not_giftable");
    expect(giftRefusal({ ...base, comingSoon: true }, "KZ", restricted)).toBe("game_not_released");
  });
  it("makes a game with every region refused not giftable at all", () => {
    const refused = { region: "KZ", currency: "KZT", amount: 1, convertedAmount: 0, refusal: "region_price_gap" as const };
    expect(gameAvailability(game({ giftRegions: ["KZ"], giftRegionPrices: [refused] }))).toBe("region_not_giftable");
    expect(
      gameAvailability(game({ giftRegions: ["RU", "KZ"], giftRegionPrices: [refused, { ...refused, region: "RU", refusal: null }] })),
    ).toBeNull();
  });
});
