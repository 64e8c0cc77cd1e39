// POST /api/v1/gifts/verify - check a gift can be bought and create an intent
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { verifyGift } from "@/lib/services/gifts";

export const POST = withApi(
  { scope: "gifts:verify", body: giftVerifyRequestSchema, idempotent: true },
  async ({ db, token, body, request }) => json(await verifyGift(db, token, body, publicOrigin(request)), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
