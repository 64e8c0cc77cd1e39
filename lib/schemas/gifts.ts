import { z } from "zod";
import "./zod-config";
import { canonicalInviteUrl, inviteRecipient, isInviteUrl } from "@/lib/steam";
import { CURRENCY, FEE_MODES } from "@/lib/money";
import {
  appIdSchema,
  quoteResponseSchema,
  attributionSchema,
  callbackUrlSchema,
  emailSchema,
  intentBreakdownShape,
  localeSchema,
  promoCodeSchema,
  redirectUrlSchema,
} from "./common";
import { GIFT_PLATFORM } from "./gift-params";

/** What `invite_link_undecodable` says, from verify's 400 and a quote's refusals alike. */
export const UNDECODABLE_INVITE_MESSAGE =
  "target.inviteUrl names no account: the code after /p/ is written with the letters bcdfghjkmnpqrtvw";

/** A friend-invite link by its shape; whether its code decodes is inviteUrlSchema's second check. */
const inviteLinkSchema = z
  .string({ error: "target.inviteUrl must be a string" })
  .trim()
  .max(512, { error: "target.inviteUrl must be at most 512 characters" })
  .refine(isInviteUrl, {
    error: "target.inviteUrl must be a friend-invite link like https://s.team/p/fhgc-rdqr/NQVGTQPG",
    abort: true,
  })
  .meta({ format: "uri", example: "https://s.team/p/fhgc-rdqr/NQVGTQPG" });

export const inviteUrlSchema = inviteLinkSchema
  // The code names the friend's account; one that does not decode was mistyped or made up.
  .refine((value) => inviteRecipient(value) !== null, {
    error: UNDECODABLE_INVITE_MESSAGE,
    params: { reason: "invite_link_undecodable" },
  })
  // One friend, one spelling: the queue, the order and the back office's search see the same link.
  .transform(canonicalInviteUrl)
  .meta({ format: "uri", example: "https://s.team/p/fhgc-rdqr/NQVGTQPG" });

export const regionSchema = z
  .string({ error: "target.region must be a string" })
  .trim()
  .regex(/^[A-Za-z]{2}$/, { error: "target.region must be a two-letter region code such as RU" })
  .transform((v) => v.toUpperCase())
  .meta({ example: "RU" });

const packageIdSchema = z
  .int({ error: "target.packageId must be a positive integer" })
  .positive({ error: "target.packageId must be a positive integer" })
  .max(2_147_483_647, { error: "target.packageId must be a positive integer" })
  .optional()
  .meta({ description: "Edition to gift; the game's main package when absent" });

// Every field but the recipient and the e-mail, which verify needs and a quote may leave out (in
// verify's order, so the first problem named stays the same).
const giftRequestHead = {
  platform: z.literal(GIFT_PLATFORM, { error: `platform must be "${GIFT_PLATFORM}" when given` }).optional(),
  item: appIdSchema("item"),
};
const giftRequestTail = {
  fee: z.enum(FEE_MODES, { error: `fee must be one of: ${FEE_MODES.join(", ")}` }),
  code: promoCodeSchema.optional(),
  // Beyond the original description, as on POST /gear: where the payment page sends the buyer
  // back, and where the store reports the payment.
  successUrl: redirectUrlSchema("successUrl").optional(),
  failureUrl: redirectUrlSchema("failureUrl").optional(),
  callbackUrl: callbackUrlSchema("callbackUrl").optional(),
  attribution: attributionSchema.optional(),
  locale: localeSchema.optional(),
};

export const giftVerifyRequestSchema = z
  .strictObject(
    {
      ...giftRequestHead,
      target: z.strictObject(
        { inviteUrl: inviteUrlSchema, region: regionSchema, packageId: packageIdSchema },
        { error: "target must be an object with inviteUrl and region" },
      ),
      email: emailSchema(),
      ...giftRequestTail,
    },
    { error: "the request body must be a JSON object" },
  )
  .meta({ id: "GiftVerifyRequest" });

/**
 * POST /gifts/quote takes verify's body; the recipient, region and e-mail may still be missing
 * (a checkout asks for the price before the shopper has typed them), and are checked when present.
 * An invite link must have the link's shape here too, but one whose code names no account is one of
 * the quote's refusals (`invite_link_undecodable`), listed with the others rather than a 400.
 */
export const giftQuoteRequestSchema = z
  .strictObject(
    {
      ...giftRequestHead,
      target: z
        .strictObject(
          { inviteUrl: inviteLinkSchema.optional(), region: regionSchema.optional(), packageId: packageIdSchema },
          { error: "target must be an object" },
        )
        .optional(),
      email: emailSchema().optional(),
      ...giftRequestTail,
    },
    { error: "the request body must be a JSON object" },
  )
  .meta({ id: "GiftQuoteRequest" });

export type GiftQuoteRequest = z.infer<typeof giftQuoteRequestSchema>;
export type GiftQuoteInput = z.input<typeof giftQuoteRequestSchema>;

export type GiftVerifyRequest = z.infer<typeof giftVerifyRequestSchema>;
export type GiftVerifyInput = z.input<typeof giftVerifyRequestSchema>;

/** The friend the invite link names, decoded from its code (an extension beyond the description). */
export const recipientSchema = z
  .object({
    accountId: z.int().meta({ description: "The account id the invite code encodes" }),
    steamId64: z.string().meta({ description: "SteamID64 = 76561197960265728 + accountId", example: "76561198853767868" }),
  })
  .meta({ id: "GiftRecipient", description: "The friend's account, decoded offline from the invite link's code" });

export const giftVerifyResponseSchema = z
  .object({
    code: z.literal(201),
    intentId: z.uuid(),
    paymentAmount: z.int().meta({ description: "What the buyer pays, kopecks, fee and promo code applied" }),
    paymentCurrency: z.literal(CURRENCY),
    paymentUrl: z.url().meta({ description: "The payment page to send the buyer to" }),
    intentAmount: z.int().meta({ description: "Price of the edition before promo code and fee, kopecks" }),
    intentCurrency: z.literal(CURRENCY),
    ...intentBreakdownShape,
    recipient: recipientSchema,
  })
  .meta({ id: "GiftVerifyResponse" });

export type GiftVerifyResponse = z.infer<typeof giftVerifyResponseSchema>;

/** POST /gifts/quote's answer: the amounts and refusals of every quote, and the friend the link names. */
export const giftQuoteResponseSchema = quoteResponseSchema
  .extend({
    recipient: recipientSchema.nullable().meta({
      description:
        "The friend's account decoded from `target.inviteUrl`, as POST /gifts/verify answers it; null when no link was sent or its code names no account (then `invite_link_undecodable` is among the refusals)",
    }),
  })
  .meta({ id: "GiftQuote" });

export type GiftQuoteResponse = z.infer<typeof giftQuoteResponseSchema>;
