// GET /api/v1/intents/{intentId} - an intent's state, amounts and times, for the owner of the token that created it
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { getIntentForOwner } from "@/lib/services/intent-lifecycle";

export const GET = withApi(ENDPOINTS.getIntent, async ({ db, token, params, request }) =>
  json(await getIntentForOwner(db, token, params.intentId, publicOrigin(request)), 200, { "Cache-Control": "no-store" }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
