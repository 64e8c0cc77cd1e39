"use client";

import { createContext, useContext } from "react";
import type { StorePricing } from "@/lib/money";

const PricingContext = createContext<StorePricing | null>(null);

export const StorePricingProvider = PricingContext.Provider;

/** The store's fee mode and rate, so every price a page shows is the all-in price paid. */
export function useStorePricing(): StorePricing {
  const pricing = useContext(PricingContext);
  if (!pricing) throw new Error("useStorePricing needs the StorePricingProvider of the root layout");
  return pricing;
}
