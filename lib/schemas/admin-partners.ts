import { z } from "zod";
import "./zod-config";

/** Revoking a partner's token from the back office (app/admin/partners/actions.ts and its button). */
export const partnerTokenRevokeSchema = z.object({ tokenId: z.uuid() });
