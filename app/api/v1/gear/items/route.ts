// GET /api/v1/gear/items - gear items with price and availability
import { ENDPOINTS } from "@/lib/api/endpoints";
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { listGearItems } from "@/lib/services/gear";

export const GET = withApi(ENDPOINTS.listGearItems, async ({ db, query }) => json(await listGearItems(db, query)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
