// POST /api/v1/intents/{intentId}/refund - give a paid intent's money back until it is delivered (the partner that created it)
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { refundIntentForOwner } from "@/lib/services/refunds";

export const POST = withApi(ENDPOINTS.refundIntent, async ({ db, token, params, body, request }) =>
  json(await refundIntentForOwner(db, token, params.intentId, body.note, publicOrigin(request)), 200, { "Cache-Control": "no-store" }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
