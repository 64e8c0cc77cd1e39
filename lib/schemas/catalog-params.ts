// The catalog's parameter vocabulary without zod, for browser code that only needs the values
// (the filter bar, the URL state); catalog.ts builds the API's schemas from the same constants.

export const STORE_CATEGORIES = ["specials", "coming_soon", "top_sellers", "new_releases"] as const;
export type StoreCategory = (typeof STORE_CATEGORIES)[number];

/** Catalog orders: `relevance` (the default: search rank, then the store's popularity), cheapest first, biggest discount first, newest release first. */
export const CATALOG_SORTS = ["relevance", "price", "discount", "newest"] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

export const CATALOG_MAX_LIMIT = 100;
export const CATALOG_MAX_PAGE = 1_000_000;
export const CATALOG_QUERY_MAX_LENGTH = 200;
export const CATALOG_GENRE_MAX_LENGTH = 64;

/** A gift region as the catalog's `giftableTo` takes it: two letters, either case. */
export const REGION_CODE_PATTERN = /^[A-Za-z]{2}$/;
