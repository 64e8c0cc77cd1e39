// The gift request's vocabulary without zod, for browser code that only needs the values (the
// checkout form); gifts.ts builds the API's schema from it. See catalog-params.ts for why.

export const GIFT_PLATFORM = "store-gift" as const;
