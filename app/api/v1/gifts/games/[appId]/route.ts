// GET /api/v1/gifts/games/{appId} - one game with its editions and gift regions
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { getGameOrThrow } from "@/lib/services/catalog";

export const GET = withApi(ENDPOINTS.getGiftGame, async ({ db, query, params, request }) =>
  json(await getGameOrThrow(db, params.appId, query.lang, publicOrigin(request))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
