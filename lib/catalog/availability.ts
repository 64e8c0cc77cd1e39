import type { Reason } from "@/lib/errors";
import type { GameDetails } from "@/lib/schemas/catalog";

export type GiftRefusal = Extract<Reason, "game_not_released" | "game_not_priced" | "region_not_giftable">;

/**
 * The one rule for whether a gift can be bought now: why not (the first reason a shopper should
 * hear), or null when it can. With `region`, whether it can go there; without, whether it can go
 * anywhere. Pure: the gift service, the game page (server) and its checkout form (browser) all ask.
 */
export function giftRefusal(
  game: { comingSoon: boolean; priced: boolean; giftRegions: readonly string[] },
  region?: string,
): GiftRefusal | null {
  if (game.comingSoon) return "game_not_released";
  if (!game.priced) return "game_not_priced";
  if (region === undefined ? game.giftRegions.length === 0 : !game.giftRegions.includes(region)) return "region_not_giftable";
  return null;
}

/** giftRefusal for a game as the catalog describes it: priced when any edition has a price. */
export function gameAvailability(game: Pick<GameDetails, "comingSoon" | "packages" | "giftRegions">): GiftRefusal | null {
  return giftRefusal({ comingSoon: game.comingSoon, priced: game.packages.some((p) => p.price !== null), giftRegions: game.giftRegions });
}
