// GET /api/v1/gifts/games/{appId} - one game with its editions and gift regions
import { notFound } from "@/lib/api/errors";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { gameLangQuerySchema } from "@/lib/schemas/catalog";
import { isAppId } from "@/lib/schemas/common";
import { getGameOrThrow } from "@/lib/services/catalog";

export const GET = withApi<typeof gameLangQuerySchema, undefined, { appId: string }>(
  { scope: "catalog:read", query: gameLangQuerySchema },
  async ({ db, query, params, request }) => {
    if (!isAppId(params.appId)) throw notFound(`game ${params.appId} not found`);
    return json(await getGameOrThrow(db, Number(params.appId), query.lang, publicOrigin(request)));
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
