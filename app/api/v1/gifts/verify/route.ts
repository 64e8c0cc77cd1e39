// POST /api/v1/gifts/verify - check a gift can be bought and create an intent
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { verifyGift } from "@/lib/services/gifts";

export const POST = withApi({ scope: "gifts:verify", body: giftVerifyRequestSchema }, async ({ db, token, body }) =>
  json(await verifyGift(db, token, body), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
