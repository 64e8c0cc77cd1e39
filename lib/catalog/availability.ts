import type { Reason } from "@/lib/errors";
import type { GameDetails } from "@/lib/schemas/catalog";

export type GiftRefusal = Extract<
  Reason,
  "game_not_released" | "game_not_priced" | "region_not_giftable" | "region_restricted" | "region_price_gap"
>;

/** A package's offer in one region, as package_region_prices and currency_rates hold it. */
export interface RegionOffer {
  currency: string;
  /** Minor units (1/100) of `currency`; null when restricted. */
  amount: number | null;
  restricted: boolean;
  /** Roubles per unit of `currency`, in millionths; null when the store has no rate for it. */
  rubMicrosPerUnit: number | null;
}

/** The regional facts giftRefusal weighs for one region: the store's own price and the offer there (undefined: none known). */
export interface RegionalCheck {
  /** The store's price of the package, kopecks. */
  storePrice: number;
  offer: RegionOffer | undefined;
  /** GIFT_PRICE_GAP: the most the converted local price may differ from the store's, in percent. */
  maxGapPercent: number;
}

/** The local amount in kopecks (amount is 1/100 of its currency, as a kopeck is of a rouble), rounded half up. */
export function convertedKopecks(amount: number, rubMicrosPerUnit: number): number {
  return Number((BigInt(amount) * BigInt(rubMicrosPerUnit) + 500_000n) / 1_000_000n);
}

/**
 * Whether a local price, converted, is within `maxGapPercent` of the store's price, either way; a
 * gap of exactly `maxGapPercent` is within. Exact integer arithmetic (the percent to 1/100), so this
 * and the SQL of refreshGiftability (lib/services/giftability.ts) agree on every boundary.
 */
export function withinPriceGap(storePrice: number, amount: number, rubMicrosPerUnit: number, maxGapPercent: number): boolean {
  const gapBasisPoints = BigInt(Math.round(maxGapPercent * 100));
  const local = BigInt(amount) * BigInt(rubMicrosPerUnit);
  const store = BigInt(storePrice) * 1_000_000n;
  const diff = local > store ? local - store : store - local;
  return diff * 10_000n <= gapBasisPoints * store;
}

/**
 * The one rule for whether a gift can be bought now: every reason it cannot, in the order a shopper
 * should hear them (empty when it can). With `region`, whether it can go there; without, whether it
 * can go anywhere. With `regional`, also whether the package is sold there and at a price close
 * enough to the store's. Pure: the gift service (verify and quote), the game page, the catalog
 * filter's precomputation (whose SQL mirrors it, checked by tests) and the checkout form all ask.
 */
export function giftRefusals(
  game: { comingSoon: boolean; priced: boolean; giftRegions: readonly string[] },
  region?: string,
  regional?: RegionalCheck,
): GiftRefusal[] {
  const refusals: GiftRefusal[] = [];
  if (game.comingSoon) refusals.push("game_not_released");
  if (!game.priced) refusals.push("game_not_priced");
  const allowed = region === undefined ? game.giftRegions.length > 0 : game.giftRegions.includes(region);
  if (!allowed) refusals.push("region_not_giftable");
  else if (region !== undefined && regional) {
    const local = regionRefusal(regional);
    if (local) refusals.push(local);
  }
  return refusals;
}

/** The first of giftRefusals (the reason verify answers), or null when the gift can be bought. */
export function giftRefusal(game: Parameters<typeof giftRefusals>[0], region?: string, regional?: RegionalCheck): GiftRefusal | null {
  return giftRefusals(game, region, regional)[0] ?? null;
}

/** The regional half of giftRefusal: whether a priced edition may go to a region it is allowed in. */
export function regionRefusal({ storePrice, offer, maxGapPercent }: RegionalCheck): "region_restricted" | "region_price_gap" | null {
  if (!offer) return null;
  if (offer.restricted || offer.amount === null) return "region_restricted";
  // Without a rate the gap cannot be checked; the region waits until the store has one.
  if (offer.rubMicrosPerUnit === null) return "region_price_gap";
  if (!withinPriceGap(storePrice, offer.amount, offer.rubMicrosPerUnit, maxGapPercent)) return "region_price_gap";
  return null;
}

/** Why a game cannot be gifted anywhere, for the game page's buy button and the checkout form. */
export type GameRefusal = Extract<GiftRefusal, "game_not_released" | "game_not_priced" | "region_not_giftable">;

/**
 * giftRefusal for a game as the catalog describes it: priced when any edition has a price; with
 * `giftRegionPrices`, giftable only when at least one region is not refused.
 */
export function gameAvailability(
  game: Pick<GameDetails, "comingSoon" | "packages" | "giftRegions"> & Partial<Pick<GameDetails, "giftRegionPrices">>,
): GameRefusal | null {
  const refusal = giftRefusal({
    comingSoon: game.comingSoon,
    priced: game.packages.some((p) => p.price !== null),
    giftRegions: game.giftRegions,
  });
  if (refusal === "region_restricted" || refusal === "region_price_gap") return "region_not_giftable"; // not reached without a region
  if (refusal === null && game.giftRegionPrices && game.giftRegionPrices.every((r) => r.refusal !== null)) return "region_not_giftable";
  return refusal;
}

// In a module of its own, so the catalog's cards do not carry the gift rules above in their script.
export { isFreeToPlay } from "./free-to-play";
