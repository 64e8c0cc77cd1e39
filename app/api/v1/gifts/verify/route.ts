// POST /api/v1/gifts/verify - check a gift can be bought and create an intent
import { json, methodNotAllowed, withApi } from "@/lib/api/handler";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { verifyGift } from "@/lib/services/gifts";

export const POST = withApi({ scope: "gifts:verify", body: giftVerifyRequestSchema }, async ({ db, token, body }) =>
  json(await verifyGift(db, token, body), 201),
);

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
