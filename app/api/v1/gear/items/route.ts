// GET /api/v1/gear/items - gear items with price and availability
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { gearItemsQuerySchema } from "@/lib/schemas/gear";
import { listGearItems } from "@/lib/services/gear";

export const GET = withApi({ scope: "catalog:read", query: gearItemsQuerySchema }, async ({ db, query }) =>
  json(await listGearItems(db, query)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
