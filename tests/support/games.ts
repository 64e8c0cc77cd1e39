import type { GameInput } from "@/lib/services/catalog-write";

/**
 * A game for upsertGames with one main edition, released and on sale in RU, ranked `sortRank` in
 * popularity (1 is the most popular); `price` is the edition's price in kopecks (null: unpriced),
 * and `game` overrides any other field.
 */
export function catalogGame(
  appId: number,
  title: string,
  sortRank: number,
  { price = 10000, ...game }: Partial<GameInput> & { price?: number | null } = {},
): GameInput {
  return {
    appId,
    title,
    titleRu: null,
    shortDescription: "Игра.",
    shortDescriptionEn: "A game.",
    headerImage: null,
    genres: ["Indie"],
    featured: [],
    comingSoon: false,
    releaseDate: null,
    sortRank,
    giftRegions: ["RU"],
    packages: [{ packageId: appId * 10, title, isMain: true, priceInitial: price, priceFinal: price, discountPercent: 0 }],
    ...game,
  };
}
