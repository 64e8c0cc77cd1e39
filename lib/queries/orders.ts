import { queryOptions } from "@tanstack/react-query";
import type { Reason } from "@/lib/errors";
import type { OrderProgress } from "@/lib/orders/progress";
import { ApiRequestError } from "./api-client";

export const orderKeys = {
  all: ["orders"] as const,
  progress: (intentId: string) => [...orderKeys.all, intentId, "progress"] as const,
};

/** The order page's own JSON route; `t` is the signed link's proof when the visitor came by one. */
export const orderStatusPath = (intentId: string, linkToken: string | null) =>
  `/orders/${intentId}/status${linkToken ? `?t=${encodeURIComponent(linkToken)}` : ""}`;

/** How often an order on its way asks for news: a delivery step takes seconds with a bot, hours with people. */
export const ORDER_POLL_MS = 4_000;

/** An order's state and timeline, polled while it is on its way (the caller decides when with `refetchInterval`). */
export const orderProgressQueryOptions = (intentId: string, linkToken: string | null) =>
  queryOptions({
    queryKey: orderKeys.progress(intentId),
    queryFn: async ({ signal }): Promise<OrderProgress> => {
      // Same origin: the session cookie goes along, so an owner needs no `t`.
      const response = await fetch(orderStatusPath(intentId, linkToken), {
        signal,
        cache: "no-store",
        headers: { accept: "application/json" },
      });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        const reason = body && typeof body === "object" && "reason" in body ? (body.reason as Reason) : null;
        throw new ApiRequestError(response.status, `the store answered ${response.status}`, reason);
      }
      return body as OrderProgress;
    },
  });
