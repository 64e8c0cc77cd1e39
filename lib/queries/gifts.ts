import { queryOptions, useMutation } from "@tanstack/react-query";
import type { QuoteResponse } from "@/lib/schemas/common";
import type { GiftQuoteInput, GiftVerifyInput, GiftVerifyResponse } from "@/lib/schemas/gifts";
import { apiFetch } from "./api-client";
import { useIdempotencyKey } from "./idempotency";

/** POST /api/v1/gifts/verify: checks the gift and creates the intent the shopper then pays. */
export function useVerifyGift() {
  const keyFor = useIdempotencyKey();
  return useMutation({
    mutationFn: (body: GiftVerifyInput) =>
      apiFetch<GiftVerifyResponse>("/api/v1/gifts/verify", {
        method: "POST",
        body,
        headers: { "Idempotency-Key": keyFor(body) },
      }),
  });
}

/**
 * POST /api/v1/gifts/quote for an applied promo code: the amounts and refusals, creating nothing.
 * Asked again only when the body changes (each ask with a code spends one of the shopper's promo
 * guesses when the code is wrong), never on focus or by retry.
 */
export const giftQuoteQueryOptions = (body: GiftQuoteInput) =>
  queryOptions({
    queryKey: ["gifts", "quote", body] as const,
    queryFn: ({ signal }) => apiFetch<QuoteResponse>("/api/v1/gifts/quote", { method: "POST", body, signal }),
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
