// POST /api/v1/gear - reserve a gear item for a gamer's account and create an intent
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { reserveGear } from "@/lib/services/gear";

export const POST = withApi(ENDPOINTS.createGearIntent, async ({ db, token, body, request, clientKey }) =>
  json(await reserveGear(db, token, body, publicOrigin(request), clientKey), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
