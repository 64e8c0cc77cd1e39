// POST /api/v1/gear - reserve a gear item for a gamer's account and create an intent
import { json, methodNotAllowed, withApi } from "@/lib/api/handler";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { reserveGear } from "@/lib/services/gear";

export const POST = withApi({ scope: "gear:create", body: gearIntentRequestSchema }, async ({ db, token, body }) =>
  json(await reserveGear(db, token, body), 201),
);

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
