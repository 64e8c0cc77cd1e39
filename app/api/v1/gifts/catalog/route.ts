// GET /api/v1/gifts/catalog - a page of giftable games, filtered and searched
import { ENDPOINTS } from "@/lib/api/endpoints";
import { jsonText, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { listCatalogBody } from "@/lib/services/catalog";

export const GET = withApi(ENDPOINTS.listGiftCatalog, async ({ db, query, request }) =>
  jsonText(await listCatalogBody(db, query, publicOrigin(request))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
