// POST /api/v1/gifts/verify - check a gift can be bought and create an intent
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { verifyGift } from "@/lib/services/gifts";

export const POST = withApi(ENDPOINTS.verifyGift, async ({ db, token, body, request, clientKey }) =>
  json(await verifyGift(db, token, body, publicOrigin(request), clientKey), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
