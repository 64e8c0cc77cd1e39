import { z } from "zod";
import "./zod-config";
import { CURRENCY } from "@/lib/money";
import {
  CATALOG_GENRE_MAX_LENGTH,
  CATALOG_MAX_LIMIT,
  CATALOG_MAX_PAGE,
  CATALOG_QUERY_MAX_LENGTH,
  REGION_CODE_PATTERN,
  STORE_CATEGORIES,
  CATALOG_SORTS,
} from "./catalog-params";
import { emptyToUndefined, queryIntSchema } from "./common";

export { CATALOG_MAX_LIMIT, STORE_CATEGORIES, type StoreCategory } from "./catalog-params";

export const LANGUAGES = ["ru", "en"] as const;
export type Language = (typeof LANGUAGES)[number];

const langSchema = z.preprocess(
  emptyToUndefined,
  z.enum(LANGUAGES, { error: "lang must be one of: ru, en" }).default("ru").meta({ description: "Language of titles and descriptions" }),
);

export const catalogQuerySchema = z.object({
  page: queryIntSchema("page", 0, CATALOG_MAX_PAGE, 0).meta({ description: "Page number, from 0" }),
  limit: queryIntSchema("limit", 1, CATALOG_MAX_LIMIT, 20).meta({ description: "Games per page" }),
  genre: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .min(1)
      .max(CATALOG_GENRE_MAX_LENGTH, { error: `genre must be at most ${CATALOG_GENRE_MAX_LENGTH} characters` })
      .optional()
      .meta({ description: "One genre, matched case-insensitively", example: "RPG" }),
  ),
  steamCategory: z.preprocess(
    emptyToUndefined,
    z
      .enum(STORE_CATEGORIES, { error: `steamCategory must be one of: ${STORE_CATEGORIES.join(", ")}` })
      .optional()
      .meta({ description: "Featured category of the store" }),
  ),
  query: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(CATALOG_QUERY_MAX_LENGTH, { error: `query must be 1 to ${CATALOG_QUERY_MAX_LENGTH} characters` })
      .optional()
      .meta({ description: "Full-text search over title and short description (Russian and English)" }),
  ),
  giftableTo: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(REGION_CODE_PATTERN, { error: "giftableTo must be a two-letter region code such as KZ" })
      .transform((v) => v.toUpperCase())
      .optional()
      .meta({
        description:
          "Only games that can be gifted to this region now: allowed there, not restricted, priced within GIFT_PRICE_GAP of the store's price, released and priced",
        example: "KZ",
      }),
  ),
  sort: z.preprocess(
    emptyToUndefined,
    z
      .enum(CATALOG_SORTS, { error: `sort must be one of: ${CATALOG_SORTS.join(", ")}` })
      .default("relevance")
      .meta({
        description:
          "Order: `relevance` (with `query`, exact and prefix title matches, then word and typo-tolerant matches; without, popularity), `price` (cheapest first), `discount` (biggest first), `newest` (latest release first). Games that cannot be bought yet (no price, not released) come after those that can in every order; free-to-play games count as available. Composes with every filter, `giftableTo` included",
      }),
  ),
  lang: langSchema,
});

export type CatalogQuery = z.infer<typeof catalogQuerySchema>;

export const priceSchema = z
  .object({
    paymentAmount: z.int().meta({ description: "Amount to pay, kopecks" }),
    paymentCurrency: z.literal(CURRENCY),
    paymentAmountFull: z.int().optional().meta({ description: "Price before discount, kopecks; only when discounted" }),
    discountPercent: z.int().min(1).max(99).optional().meta({ description: "Only when discounted" }),
  })
  .meta({ id: "Price" });

export type Price = z.infer<typeof priceSchema>;

export const catalogGameSchema = z
  .object({
    appId: z.int(),
    slug: z.string().meta({ example: "store-620" }),
    title: z.string(),
    headerImage: z.string().meta({ format: "uri" }),
    shortDescription: z.string(),
    genres: z.array(z.string()),
    price: priceSchema.nullable().meta({ description: "null when no price is known" }),
    comingSoon: z.boolean().meta({ description: "Announced but not released; cannot be bought yet" }),
    hasGear: z.boolean().meta({
      description:
        "In-game gear of this game is on sale (GET /gear/items?platform={appId}); free-to-play games have no price but may have gear",
    }),
  })
  .meta({ id: "GiftCatalogGame" });

export type CatalogGame = z.infer<typeof catalogGameSchema>;

export const catalogResponseSchema = z
  .object({
    games: z.array(catalogGameSchema),
    total: z.int().meta({ description: "Games matching the filters" }),
  })
  .meta({ id: "GiftCatalogResponse" });

export type CatalogResponse = z.infer<typeof catalogResponseSchema>;

/** Why an edition on sale cannot be gifted to one of the game's regions. */
export const EDITION_REGION_REFUSALS = ["region_restricted", "region_price_gap"] as const;

/** Why a gift to one of a game's regions would be refused: the game's own reasons first, as verify answers them. */
export const GIFT_REGION_REFUSALS = ["game_not_released", "game_not_priced", ...EDITION_REGION_REFUSALS] as const;

export const gamePackageSchema = z
  .object({
    packageId: z.int(),
    title: z.string(),
    isMain: z.boolean().meta({ description: "The edition used when a gift names no packageId" }),
    price: priceSchema.nullable(),
    refusedRegions: z.array(z.object({ region: z.string().meta({ example: "AM" }), refusal: z.enum(EDITION_REGION_REFUSALS) })).meta({
      description:
        "Those of the game's `giftRegions` this edition cannot be gifted to now, and why (the reason POST /gifts/verify would answer with this packageId); empty when it can go to all of them, or has no price",
    }),
  })
  .meta({ id: "GamePackage" });

export type GamePackage = z.infer<typeof gamePackageSchema>;

export const giftRegionPriceSchema = z
  .object({
    region: z.string().meta({ description: "ISO 3166 alpha-2", example: "KZ" }),
    currency: z.string().nullable().meta({ description: "ISO 4217; null when the store has no price for the region", example: "KZT" }),
    amount: z.int().nullable().meta({ description: "The main edition's price there, minor units (1/100) of `currency`" }),
    convertedAmount: z.int().nullable().meta({ description: "`amount` in kopecks at the store's current rate" }),
    refusal: z.enum(GIFT_REGION_REFUSALS).nullable().meta({
      description:
        "Why the main edition cannot be gifted there (the reason POST /gifts/verify would answer): the game is not out yet or has no price (then every region says so), the edition is not sold there, or its price there is too far from the store's; null when it can",
    }),
  })
  .meta({ id: "GiftRegionPrice" });

export type GiftRegionPrice = z.infer<typeof giftRegionPriceSchema>;

export const gameDetailsSchema = catalogGameSchema
  .extend({
    packages: z.array(gamePackageSchema),
    giftRegions: z.array(z.string()).meta({ description: "ISO 3166 alpha-2 codes the game can be gifted to" }),
    giftRegionPrices: z
      .array(giftRegionPriceSchema)
      .meta({ description: "For each of `giftRegions`, the main edition's local price and whether it can be gifted there now" }),
  })
  .meta({ id: "GameDetails" });

export type GameDetails = z.infer<typeof gameDetailsSchema>;

export const gameLangQuerySchema = z.object({ lang: langSchema });
