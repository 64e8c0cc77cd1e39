// POST /api/v1/gear/quote - what a gear item would cost and why it would be refused, reserving nothing
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { quoteBody, quotedWrongCode } from "@/lib/api/quotes";
import { quoteGear } from "@/lib/services/gear";

export const POST = withApi(ENDPOINTS.quoteGear, async ({ db, body, keepPromoGuess }) => {
  const quote = await quoteGear(db, body);
  if (quotedWrongCode(quote)) keepPromoGuess();
  return json(quoteBody(quote));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
