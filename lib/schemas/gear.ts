import { z } from "zod";
import "./zod-config";
import { CURRENCY } from "@/lib/money";
import { accountIdFromSteamId64, parseTradeLink, repeatsTradeLinkParameter } from "@/lib/steam";
import {
  appIdSchema,
  isAppId,
  attributionSchema,
  emailSchema,
  emptyToUndefined,
  intentBreakdownShape,
  localeSchema,
  promoCodeSchema,
  queryIntSchema,
  redirectUrlSchema,
  callbackUrlSchema,
} from "./common";

export const steamId64Schema = z
  .string({ error: "account must be a SteamID64 string of 17 digits" })
  .trim()
  .refine((v) => accountIdFromSteamId64(v) !== null, {
    error: "account must be a SteamID64 of an individual account (17 digits, starting 7656119)",
  })
  .meta({ description: "The gamer's SteamID64", example: "76561198000000001" });

export const tradeLinkSchema = z
  .string({ error: "additionalFields.tradeLink must be a string" })
  .trim()
  .max(512, { error: "additionalFields.tradeLink must be at most 512 characters" })
  .refine((v) => parseTradeLink(v) !== null, {
    error: (issue) =>
      typeof issue.input === "string" && repeatsTradeLinkParameter(issue.input)
        ? "additionalFields.tradeLink must give partner and token once each"
        : "additionalFields.tradeLink must look like https://steamcommunity.com/tradeoffer/new/?partner=<account id>&token=<8 characters>",
  })
  .meta({ example: "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12" });

const additionalFieldsSchema = z
  .strictObject(
    {
      storeId: z
        .string({ error: "additionalFields.storeId must be a string" })
        .trim()
        .min(1, { error: "additionalFields.storeId must not be empty" })
        .max(64, { error: "additionalFields.storeId must be at most 64 characters" })
        .optional(),
      tradeLink: tradeLinkSchema.optional(),
    },
    { error: "additionalFields must be an object" },
  )
  .optional();

const gearRequestTail = {
  platform: appIdSchema("platform"),
  item: z
    .string({ error: "item must be a string" })
    .trim()
    .min(1, { error: "item must not be empty" })
    .max(128, { error: "item must be at most 128 characters" })
    .meta({ example: "ak47-redline" }),
  code: promoCodeSchema.optional(),
  fee: z.literal("excluded", { error: 'fee must be "excluded" (the only fee mode for gear)' }).default("excluded"),
  attribution: attributionSchema.optional(),
  successUrl: redirectUrlSchema("successUrl").optional(),
  failureUrl: redirectUrlSchema("failureUrl").optional(),
  callbackUrl: callbackUrlSchema("callbackUrl").optional(),
  locale: localeSchema.optional(),
};

// The trade link must be the account's own; only two well-formed values can disagree (a bad one has its own issue).
function tradeLinkMatchesAccount(body: { account?: string; additionalFields?: { tradeLink?: string } }, ctx: z.RefinementCtx) {
  const tradeLink = body.additionalFields?.tradeLink;
  if (!tradeLink || body.account === undefined) return;
  const link = parseTradeLink(tradeLink);
  const accountId = accountIdFromSteamId64(body.account);
  if (link && accountId !== null && link.partner !== accountId) {
    ctx.addIssue({
      code: "custom",
      path: ["additionalFields", "tradeLink"],
      message: "additionalFields.tradeLink belongs to another account than account",
      // The catalogue's reason (lib/errors.ts): the API answers it, and a form tells it from a malformed link.
      params: { reason: "trade_link_mismatch" },
    });
  }
}

export const gearIntentRequestSchema = z
  .strictObject(
    { account: steamId64Schema, additionalFields: additionalFieldsSchema, email: emailSchema(), ...gearRequestTail },
    { error: "the request body must be a JSON object" },
  )
  .superRefine(tradeLinkMatchesAccount)
  .meta({ id: "GearIntentRequest" });

/**
 * POST /gear/quote takes the body of POST /gear; the account and e-mail may still be missing (a
 * checkout asks for the price before the gamer has typed them), and are checked when present.
 */
export const gearQuoteRequestSchema = z
  .strictObject(
    { account: steamId64Schema.optional(), additionalFields: additionalFieldsSchema, email: emailSchema().optional(), ...gearRequestTail },
    { error: "the request body must be a JSON object" },
  )
  .superRefine(tradeLinkMatchesAccount)
  .meta({ id: "GearQuoteRequest" });

export type GearQuoteRequest = z.infer<typeof gearQuoteRequestSchema>;
export type GearQuoteInput = z.input<typeof gearQuoteRequestSchema>;

export type GearIntentRequest = z.infer<typeof gearIntentRequestSchema>;
export type GearIntentInput = z.input<typeof gearIntentRequestSchema>;

export const gearIntentResponseSchema = z
  .object({
    code: z.literal(201),
    intentId: z.uuid(),
    verified: z.literal(true).meta({ description: "The item is reserved for this intent" }),
    intentAmount: z.int().meta({ description: "Item price before promo code and fee, kopecks" }),
    intentCurrency: z.literal(CURRENCY),
    paymentAmount: z.int().meta({ description: "What the gamer pays, kopecks" }),
    paymentCurrency: z.literal(CURRENCY),
    ...intentBreakdownShape,
    message: z.string(),
    paymentUrl: z.url().meta({ description: "The payment page to send the gamer to" }),
  })
  .meta({ id: "GearIntentResponse" });

export type GearIntentResponse = z.infer<typeof gearIntentResponseSchema>;

export const gearItemsQuerySchema = z.object({
  platform: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(isAppId, { error: "platform must be the game's appId (a positive integer)" })
      .transform(Number)
      .optional()
      .meta({ description: "Only items of this platform (appId)" }),
  ),
  page: queryIntSchema("page", 0, 1_000_000, 0),
  limit: queryIntSchema("limit", 1, 100, 50),
});

export type GearItemsQuery = z.infer<typeof gearItemsQuerySchema>;

export const gearItemSchema = z
  .object({
    item: z.string(),
    title: z.string(),
    platform: z.string().meta({ description: "appId of the game the item belongs to" }),
    price: z.object({ paymentAmount: z.int(), paymentCurrency: z.literal(CURRENCY) }),
    available: z.int().meta({ description: "Stock minus live reservations" }),
  })
  .meta({ id: "GearItem" });

export type GearItem = z.infer<typeof gearItemSchema>;

export const gearItemsResponseSchema = z.object({ items: z.array(gearItemSchema), total: z.int() }).meta({ id: "GearItemsResponse" });

export type GearItemsResponse = z.infer<typeof gearItemsResponseSchema>;
