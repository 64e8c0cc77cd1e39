import type { z } from "zod";
import type { Reason } from "@/lib/errors";
import { catalogQuerySchema, catalogResponseSchema, gameDetailsSchema, gameLangQuerySchema } from "@/lib/schemas/catalog";
import { quoteResponseSchema } from "@/lib/schemas/common";
import {
  gearIntentRequestSchema,
  gearIntentResponseSchema,
  gearItemsQuerySchema,
  gearItemsResponseSchema,
  gearQuoteRequestSchema,
} from "@/lib/schemas/gear";
import { giftQuoteRequestSchema, giftQuoteResponseSchema, giftVerifyRequestSchema, giftVerifyResponseSchema } from "@/lib/schemas/gifts";
import { intentRefundRequestSchema, intentSchema } from "@/lib/schemas/intents";
import type { ApiScope } from "@/lib/schemas/tokens";

type JsonSchema = Record<string, unknown>;

/**
 * Everything about one /api/v1 endpoint, said once: the route's `withApi` enforces it and the
 * OpenAPI document (lib/openapi.ts) and the reference page describe it from the same object.
 */
export interface Endpoint<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  P extends string = string,
  I extends boolean = boolean,
> {
  operationId: string;
  method: "GET" | "POST";
  /** Under /api/v1, with `{name}` for path parameters, as the route's folder spells them. */
  path: string;
  summary: string;
  /** The scope a token must hold. */
  scope: ApiScope;
  query?: Q;
  body?: B;
  /** Path parameters: checked by the service (an invalid id is the same 404 as an unknown one), documented here. */
  pathParams?: Record<P, JsonSchema>;
  /** The body may be left out altogether (then it is `{}`); sent, it must be JSON like any other. */
  bodyOptional?: boolean;
  /** Honours `Idempotency-Key` (lib/services/idempotency.ts): the handler runs in the key's transaction. */
  idempotent?: I;
  /**
   * Rate limits beyond the per-token one every endpoint has: `promoGuessField` names the body
   * field whose refusals count as promo-code guesses (the stricter `promo` policy).
   */
  rateLimits?: { promoGuessField: string };
  /** The success answer. */
  response: { status: 200 | 201; description: string; schema: z.ZodType };
  /** The refusals this endpoint's own logic can answer, beyond those of authentication, limits and parsing. */
  reasons: Reason[];
}

function endpoint<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends string = never,
  I extends boolean = false,
>(e: Endpoint<Q, B, P, I>): Endpoint<Q, B, P, I> {
  return e;
}

const PROMO_CODE_REASONS = [
  "promo_code_unknown",
  "promo_code_not_yet_valid",
  "promo_code_expired",
  "promo_code_used_up",
] as const satisfies Reason[];

export const ENDPOINTS = {
  listGiftCatalog: endpoint({
    operationId: "listGiftCatalog",
    method: "GET",
    path: "/gifts/catalog",
    summary: "A page of giftable games, filtered and searched",
    scope: "catalog:read",
    query: catalogQuerySchema,
    response: { status: 200, description: "A page of games and the total matching the filters", schema: catalogResponseSchema },
    reasons: [],
  }),
  getGiftGame: endpoint({
    operationId: "getGiftGame",
    method: "GET",
    path: "/gifts/games/{appId}",
    summary: "One game with its editions and gift regions",
    scope: "catalog:read",
    query: gameLangQuerySchema,
    pathParams: { appId: { type: "integer", minimum: 1, description: "The game's appId" } },
    response: { status: 200, description: "The game", schema: gameDetailsSchema },
    reasons: ["game_not_found"],
  }),
  verifyGift: endpoint({
    operationId: "verifyGift",
    method: "POST",
    path: "/gifts/verify",
    summary: "Check a gift can be bought and create an intent with the amount to pay",
    scope: "gifts:verify",
    body: giftVerifyRequestSchema,
    idempotent: true,
    rateLimits: { promoGuessField: "code" },
    response: { status: 201, description: "Intent created (or replayed for an Idempotency-Key)", schema: giftVerifyResponseSchema },
    reasons: [
      "invite_link_undecodable",
      "game_not_found",
      "edition_not_found",
      "game_not_released",
      "game_not_priced",
      "region_not_giftable",
      "region_restricted",
      "region_price_gap",
      ...PROMO_CODE_REASONS,
      "promo_code_not_for_gifts",
      "promo_code_not_for_game",
      "hold_limit_reached",
      "promo_code_held",
    ],
  }),
  quoteGift: endpoint({
    operationId: "quoteGift",
    method: "POST",
    path: "/gifts/quote",
    summary: "What a gift would cost and every reason it would be refused, creating and holding nothing",
    scope: "gifts:verify",
    body: giftQuoteRequestSchema,
    // A wrong code in a quote is a guess like any other: it counts against the same limit.
    rateLimits: { promoGuessField: "code" },
    response: {
      status: 200,
      description:
        "The amounts POST /gifts/verify would record, the friend the invite link names (`recipient`), and in `refusals` every reason verify would now refuse the body: `invite_link_undecodable`, `game_not_released`, `game_not_priced`, `region_not_giftable`, `region_restricted`, `region_price_gap` and the promo code's",
      schema: giftQuoteResponseSchema,
    },
    // Only what leaves nothing to price is an error; every other refusal is listed in the 200.
    reasons: ["game_not_found", "edition_not_found"],
  }),
  createGearIntent: endpoint({
    operationId: "createGearIntent",
    method: "POST",
    path: "/gear",
    summary: "Reserve a gear item for a gamer's account and create an intent",
    scope: "gear:create",
    body: gearIntentRequestSchema,
    idempotent: true,
    rateLimits: { promoGuessField: "code" },
    response: {
      status: 201,
      description: "Item reserved and intent created (or replayed for an Idempotency-Key)",
      schema: gearIntentResponseSchema,
    },
    reasons: [
      "trade_link_mismatch",
      "platform_not_found",
      "item_not_found",
      "out_of_stock",
      ...PROMO_CODE_REASONS,
      "promo_code_not_for_gear",
      "promo_code_not_for_platform",
      "hold_limit_reached",
      "promo_code_held",
    ],
  }),
  quoteGear: endpoint({
    operationId: "quoteGear",
    method: "POST",
    path: "/gear/quote",
    summary: "What a gear item would cost and every reason it would be refused, reserving nothing",
    scope: "gear:create",
    body: gearQuoteRequestSchema,
    rateLimits: { promoGuessField: "code" },
    response: {
      status: 200,
      description:
        "The amounts POST /gear would record, and in `refusals` every reason it would now refuse the body: the promo code's and `out_of_stock`",
      schema: quoteResponseSchema,
    },
    reasons: ["trade_link_mismatch", "platform_not_found", "item_not_found"],
  }),
  listGearItems: endpoint({
    operationId: "listGearItems",
    method: "GET",
    path: "/gear/items",
    summary: "Gear items with price and availability",
    scope: "catalog:read",
    query: gearItemsQuerySchema,
    response: { status: 200, description: "A page of items", schema: gearItemsResponseSchema },
    reasons: [],
  }),
  getIntent: endpoint({
    operationId: "getIntent",
    method: "GET",
    path: "/intents/{intentId}",
    summary: "An intent's status, amounts, what is bought and the time of each move",
    scope: "intents:read",
    pathParams: { intentId: { type: "string", format: "uuid", description: "The intent's id" } },
    response: { status: 200, description: "The intent, as of now (an unpaid intent past expiresAt is expired)", schema: intentSchema },
    reasons: ["intent_not_found"],
  }),
  refundIntent: endpoint({
    operationId: "refundIntent",
    method: "POST",
    path: "/intents/{intentId}/refund",
    summary: "Give a paid intent's money back, until it is delivered (partners only)",
    scope: "intents:refund",
    body: intentRefundRequestSchema,
    bodyOptional: true,
    idempotent: true,
    pathParams: { intentId: { type: "string", format: "uuid", description: "The intent's id" } },
    response: { status: 200, description: "The intent, refunded (or replayed for an Idempotency-Key)", schema: intentSchema },
    reasons: ["partner_required", "intent_not_found", "intent_state_conflict", "intent_already_delivered"],
  }),
};

export type EndpointName = keyof typeof ENDPOINTS;

/** Refusals any authenticated endpoint can answer. */
const AUTH_REASONS: Reason[] = ["missing_token", "invalid_token", "token_expired", "token_revoked", "insufficient_scope", "rate_limited"];

/** Every reason `e` can answer, in catalogue order: its own and those its declaration implies. */
export function reasonsOf(e: Endpoint): Reason[] {
  const implied: Reason[] = [...AUTH_REASONS, "method_not_allowed", "internal_error"];
  if (e.pathParams) implied.push("invalid_path");
  if (e.query) implied.push("invalid_field");
  if (e.body) implied.push("invalid_field", "unknown_field", "invalid_body", "body_too_large", "unsupported_media_type");
  if (e.idempotent) implied.push("invalid_idempotency_key", "idempotency_key_reused");
  return [...new Set([...implied, ...e.reasons])];
}
