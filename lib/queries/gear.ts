import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { QuoteResponse } from "@/lib/schemas/common";
import type { GearIntentInput, GearIntentResponse, GearItemsResponse, GearQuoteInput } from "@/lib/schemas/gear";
import { ApiRequestError, apiFetch } from "./api-client";
import { useIdempotencyKey } from "./idempotency";

export const gearKeys = {
  all: ["gear"] as const,
  items: (platform: string) => [...gearKeys.all, "items", platform] as const,
};

/** A platform's items with price and availability (stock minus live reservations). */
export const gearItemsQueryOptions = (platform: string) =>
  queryOptions({
    queryKey: gearKeys.items(platform),
    queryFn: ({ signal }) =>
      apiFetch<GearItemsResponse>(`/api/v1/gear/items?platform=${encodeURIComponent(platform)}&limit=100`, { signal }),
    // Availability changes as others buy: refresh when the shopper comes back to the tab.
    staleTime: 10_000,
  });

/**
 * POST /api/v1/gear: reserves one unit and creates the intent. Availability is refetched after a
 * reservation and after a 409 (someone else took the last unit), so the list shows the truth.
 */
export function useCreateGearIntent() {
  const queryClient = useQueryClient();
  const keyFor = useIdempotencyKey();
  return useMutation({
    mutationFn: (body: GearIntentInput) =>
      apiFetch<GearIntentResponse>("/api/v1/gear", {
        method: "POST",
        body,
        headers: { "Idempotency-Key": keyFor(body) },
      }),
    onSettled: (_data, error, body) => {
      if (!error || (error instanceof ApiRequestError && (error.status === 409 || error.status === 404))) {
        void queryClient.invalidateQueries({ queryKey: gearKeys.items(String(body.platform)) });
      }
    },
  });
}

/** POST /api/v1/gear/quote for an applied promo code; asked again only when the body changes, as giftQuoteQueryOptions. */
export const gearQuoteQueryOptions = (body: GearQuoteInput) =>
  queryOptions({
    queryKey: [...gearKeys.all, "quote", body] as const,
    queryFn: ({ signal }) => apiFetch<QuoteResponse>("/api/v1/gear/quote", { method: "POST", body, signal }),
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
