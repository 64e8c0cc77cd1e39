// POST /api/v1/gear - reserve a gear item for a gamer's account and create an intent
import { json, otherMethods, withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/http/public-origin";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { reserveGear } from "@/lib/services/gear";

export const POST = withApi(
  { scope: "gear:create", body: gearIntentRequestSchema, idempotent: true },
  async ({ db, token, body, request }) => json(await reserveGear(db, token, body, publicOrigin(request)), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
