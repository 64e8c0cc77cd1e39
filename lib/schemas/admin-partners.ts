import { z } from "zod";
import "./zod-config";

/** Revoking a partner's token from the back office (app/admin/partners/actions.ts and its button). */
export const partnerTokenRevokeSchema = z.object({ tokenId: z.uuid() });

/** Making the account with this e-mail a partner (/admin/partners). */
export const partnerMakeSchema = z.object({
  email: z.email({ error: "email must be an e-mail address" }).trim().max(254, { error: "email must be at most 254 characters" }),
});

/** Ending an account's partnership. */
export const partnerRemoveSchema = z.object({ userId: z.uuid() });

/** The most a partner's own cap on open holds may be (the database's check says the same). */
export const PARTNER_HOLD_CAP_MAX = 10_000_000;

/** A partner's own cap on open holds; empty (null) is the store's default, HOLD_LIMIT_PER_PARTNER. */
export const partnerHoldCapSchema = z.object({
  userId: z.uuid(),
  holdCap: z
    .int({ error: "the cap must be a whole number" })
    .min(1, { error: "the cap must be at least 1" })
    .max(PARTNER_HOLD_CAP_MAX, { error: `the cap must be at most ${PARTNER_HOLD_CAP_MAX}` })
    .nullable(),
});
export type PartnerHoldCapRequest = z.input<typeof partnerHoldCapSchema>;
