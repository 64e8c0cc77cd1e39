import type { Reason } from "@/lib/errors";
import type { GameDetails } from "@/lib/schemas/catalog";

export type GiftRefusal = Extract<Reason, "game_not_released" | "game_not_priced" | "region_not_giftable">;

/**
 * The one rule for whether a gift can be bought now: every reason it cannot, in the order a shopper
 * should hear them (empty when it can). With `region`, whether it can go there; without, whether it
 * can go anywhere. Pure: the gift service (verify and quote), the game page (server) and its
 * checkout form (browser) all ask.
 */
export function giftRefusals(
  game: { comingSoon: boolean; priced: boolean; giftRegions: readonly string[] },
  region?: string,
): GiftRefusal[] {
  const refusals: GiftRefusal[] = [];
  if (game.comingSoon) refusals.push("game_not_released");
  if (!game.priced) refusals.push("game_not_priced");
  if (region === undefined ? game.giftRegions.length === 0 : !game.giftRegions.includes(region)) refusals.push("region_not_giftable");
  return refusals;
}

/** The first of giftRefusals, or null when the gift can be bought. */
export function giftRefusal(game: Parameters<typeof giftRefusals>[0], region?: string): GiftRefusal | null {
  return giftRefusals(game, region)[0] ?? null;
}

/** giftRefusal for a game as the catalog describes it: priced when any edition has a price. */
export function gameAvailability(game: Pick<GameDetails, "comingSoon" | "packages" | "giftRegions">): GiftRefusal | null {
  return giftRefusal({ comingSoon: game.comingSoon, priced: game.packages.some((p) => p.price !== null), giftRegions: game.giftRegions });
}

/** A game anyone can play for nothing: no price, and the store files it as free to play. */
export function isFreeToPlay(game: { price: unknown; genres: readonly string[] }): boolean {
  return game.price === null && game.genres.includes("Free to Play");
}
