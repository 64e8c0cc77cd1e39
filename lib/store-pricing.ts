import "server-only";
import { env } from "@/lib/env";
import { feeRateToBps, type StorePricing } from "@/lib/money";

/** The store's own pages' pricing, from STOREFRONT_FEE_MODE and FEE_RATE; handed to the browser through the layout. */
export const storePricing = (): StorePricing => ({ giftFeeMode: env.STOREFRONT_FEE_MODE, feeRateBps: feeRateToBps(env.FEE_RATE) });
