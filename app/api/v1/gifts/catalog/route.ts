// GET /api/v1/gifts/catalog - a page of giftable games, filtered and searched
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { catalogQuerySchema } from "@/lib/schemas/catalog";
import { listCatalog } from "@/lib/services/catalog";

export const GET = withApi({ scope: "catalog:read", query: catalogQuerySchema }, async ({ db, query, request }) =>
  json(await listCatalog(db, query, publicOrigin(request))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
