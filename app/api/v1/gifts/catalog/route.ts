// GET /api/v1/gifts/catalog - a page of giftable games, filtered and searched
import { ENDPOINTS } from "@/lib/api/endpoints";
import { jsonText, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { listCatalogJson } from "@/lib/services/catalog";

export const GET = withApi(ENDPOINTS.listGiftCatalog, async ({ db, query, request }) =>
  jsonText(await listCatalogJson(db, query, publicOrigin(request))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
