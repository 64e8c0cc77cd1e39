// GET /api/v1/gifts/catalog - a page of giftable games, filtered and searched
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { listCatalog } from "@/lib/services/catalog";

export const GET = withApi(ENDPOINTS.listGiftCatalog, async ({ db, query, request }) =>
  json(await listCatalog(db, query, publicOrigin(request))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
