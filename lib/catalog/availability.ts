import type { GameDetails } from "@/lib/schemas/catalog";

export type GameAvailability = "available" | "comingSoon" | "noPrice" | "noRegions";

/**
 * Whether a gift can be bought now, and if not, the first reason a shopper should hear. Pure: the
 * game page (server) and its checkout form (browser) both ask.
 */
export function gameAvailability(game: Pick<GameDetails, "comingSoon" | "packages" | "giftRegions">): GameAvailability {
  if (game.comingSoon) return "comingSoon";
  if (!game.packages.some((p) => p.price !== null)) return "noPrice";
  if (game.giftRegions.length === 0) return "noRegions";
  return "available";
}
