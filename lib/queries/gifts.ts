import { useMutation } from "@tanstack/react-query";
import type { GiftVerifyInput, GiftVerifyResponse } from "@/lib/schemas/gifts";
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
