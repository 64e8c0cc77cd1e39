"use client";

import { useEffect } from "react";
import { checkoutKeys, forgetSettledOrder } from "@/components/checkout/use-session-state";

/** A settled order is no longer one to pay: Back to the checkout form then finds the form, not this order. */
export function ForgetSettledOrder({ intentId, kind, appId }: { intentId: string; kind: "gift" | "gear"; appId: number }) {
  useEffect(() => {
    forgetSettledOrder(kind === "gift" ? checkoutKeys.gift(appId).order : checkoutKeys.gear.order, intentId);
  }, [intentId, kind, appId]);
  return null;
}
