// POST /api/v1/gifts/quote - what a gift would cost and why it would be refused, creating nothing
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { giftQuoteBody, quotedWrongCode } from "@/lib/api/quotes";
import { quoteGift } from "@/lib/services/gifts";

export const POST = withApi(ENDPOINTS.quoteGift, async ({ db, body, keepPromoGuess }) => {
  const quote = await quoteGift(db, body);
  if (quotedWrongCode(quote)) keepPromoGuess();
  return json(giftQuoteBody(quote));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
