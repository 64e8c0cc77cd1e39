import { z } from "zod";
import { MIN_PAYMENT_KOPECKS } from "@/lib/money";
import { CATALOG_MAX_LIMIT, catalogQuerySchema, catalogResponseSchema, gameDetailsSchema, gameLangQuerySchema } from "@/lib/schemas/catalog";
import { errorSchema } from "@/lib/schemas/common";
import { gearIntentRequestSchema, gearIntentResponseSchema, gearItemsQuerySchema, gearItemsResponseSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema, giftVerifyResponseSchema } from "@/lib/schemas/gifts";
import { intentSchema } from "@/lib/schemas/intents";
import { API_SCOPES } from "@/lib/schemas/tokens";
import { CALLBACK_WEBHOOKS, CALLBACKS_GUIDE } from "@/lib/webhooks/guide";

// The API's documented decisions, in the product's words. The reference page renders these too.
export const API_GUIDE: { title: string; body: string[] }[] = [
  {
    title: "Authentication",
    body: [
      "Every /api/v1 request carries `Authorization: Bearer <token>`. Tokens look like `gk_live_` followed by 43 letters and digits, are stored only as a SHA-256 hash, are shown once when created, may expire, can be revoked, and record when they were last used (to the minute).",
      `A token holds one or more scopes: ${API_SCOPES.map((s) => `\`${s}\``).join(", ")}. The catalog, game and gear-item reads need \`catalog:read\`; POST /gifts/verify needs \`gifts:verify\`; POST /gear needs \`gear:create\`; GET /intents/{intentId} needs \`intents:read\`.`,
      "A missing, malformed, unknown, expired or revoked token is 401 with a `WWW-Authenticate: Bearer` challenge; a valid token without the scope is 403.",
      "Each server process reuses a successful token lookup for up to AUTH_CACHE_TTL_MS (5 s by default), so a revocation takes effect at once on the instance that made it and within 5 seconds everywhere else. Expiry is checked on every request.",
      "Operators create tokens with `npm run --silent token:create -- --name NAME [--scopes catalog:read,gifts:verify] [--expires-in 30d]` (the token is the last line printed), list them with `npm run token:list` and revoke with `npm run token:revoke -- ID_OR_PREFIX`.",
    ],
  },
  {
    title: "Amounts and fees",
    body: [
      "Every amount is an integer number of kopecks (RUB minor units): 129900 is 1 299 ₽. The server computes every amount; a client never sends one.",
      "The fee rate r is set by the store (FEE_RATE, 5 % by default). `base` is the price after the promo code. `excluded`: the fee is added on top, pay = base + round(base × r). `included`: the fee is inside the price, pay = base. `naive`: the fee is taken as r of the payment, pay = ceil(base / (1 − r)). So included ≤ excluded ≤ naive. Halves round up.",
      "Gear supports only `excluded`, which is also its default. `intentAmount` in a gear response is the item's price before promo code and fee; `paymentAmount` is what the gamer pays.",
      "Beyond the description, both intent responses show how the amount came about and how long it holds: `intentAmount` (the price before promo code and fee; gear always had it), `discountAmount`, `feeAmount` and `expiresAt`. `paymentAmount` = `intentAmount` − `discountAmount`, plus `feeAmount` unless the fee is `included`.",
    ],
  },
  {
    title: "Promo codes",
    body: [
      "Codes are case-insensitive. A code is a percent or a fixed discount, may have a validity window and a usage limit, and may be limited to gifts, to gear, or to particular games or platforms.",
      `A discount never takes a price below ${MIN_PAYMENT_KOPECKS / 100} ₽ (or below the price itself when that is lower). Percent discounts round half up to the kopeck.`,
      "An unknown, not-yet-valid, expired, used-up or inapplicable code is 400 and nothing is recorded. A use is counted in the same transaction that creates the intent.",
    ],
  },
  {
    title: "Catalog",
    body: [
      `\`page\` starts at 0; \`limit\` is 1 to ${CATALOG_MAX_LIMIT} (default 20). Filters combine: \`genre\` (one genre, case-insensitive), \`steamCategory\` (\`specials\` are exactly the discounted games, \`coming_soon\` the announced ones, \`top_sellers\` and \`new_releases\` curated lists), \`query\` (1 to 200 characters).`,
      "`query` is full-text search in PostgreSQL over titles and short descriptions, in Russian and English (stemmed) and as typed: every word must match, the last characters of a word may be missing (search as you type), and title matches rank before description matches.",
      "Order is stable: relevance for a search, then store popularity, then appId, so pages never repeat or skip a game. A page past the end is 200 with `games: []` and the real `total`. `lang` (ru by default, or en) picks the language of titles and descriptions. Unknown parameters (`utm_source`, …) are ignored; an empty parameter counts as not given.",
      "Catalog answers may be a few seconds old, at most twice CATALOG_CACHE_TTL_MS (5 s by default): identical requests share one database read, and an expired answer is served while one refresh replaces it. `total` is exact for the data the answer was read from.",
      "`price` is null when no price is known. `paymentAmountFull` and `discountPercent` appear only when the game is discounted. `comingSoon` marks games that cannot be bought yet. `headerImage` is an absolute URL of the cover.",
    ],
  },
  {
    title: "Gifts",
    body: [
      "POST /gifts/verify needs `item` (the appId, digits, as a string or number), `target.inviteUrl` (the recipient's friend-invite link, https://s.team/p/<code>/<token>), `target.region` (two letters), `email` and `fee`. `platform` must be `store-gift` when given; `target.packageId` picks an edition (the main one by default); `code` is a promo code.",
      "404: unknown game, or a package that is not the game's. 409: the game cannot be bought now (coming soon, no price) or cannot be gifted to that region. 201 creates an intent that waits for payment.",
      "`attribution` (optional; `utm_source`, `utm_medium`, `utm_campaign`, `utm_content`, `utm_term`, as for gear) is recorded with the intent: an extension beyond the description, which lists it for gear only. The store's own pages send the campaign the shopper last arrived by; partners may send their own.",
    ],
  },
  {
    title: "Gear and stock",
    body: [
      "POST /gear needs `account` (a SteamID64 of an individual account), `platform` (the game's appId), `item` and `email`. `additionalFields.tradeLink`, when given, must be https://steamcommunity.com/tradeoffer/new/?partner=<account id>&token=<8 characters> and its partner must be the same account (SteamID64 = 76561197960265728 + partner).",
      "Creating the intent reserves one unit. A reservation holds stock while its intent is unpaid and unexpired (INTENT_TTL_SECONDS, 15 minutes by default); an expired reservation frees its unit by itself. Concurrent requests never reserve more units than the stock (the database itself refuses it): the last ones get 409. Unknown platform or item: 404.",
      "`successUrl`, `failureUrl` and `callbackUrl` must be absolute https:// URLs (http:// only for localhost, for development); anything else, such as `javascript:`, is 400.",
    ],
  },
  // Intent lifecycle: states, the payment page, idempotency.
  {
    title: "Intent states",
    body: [
      "Every intent has a `status`. The only moves: `requires_payment` → `paid` → `fulfilled`, or `requires_payment` → `canceled` (the buyer declined) or `expired` (not paid in time). Each move records its time (`paidAt`, `fulfilledAt`, `canceledAt`, `expiredAt`); the database itself refuses any other move, so `fulfilled`, `canceled` and `expired` are final.",
      "GET /intents/{intentId} returns the status, the amounts, what is bought, the attribution, the times and the URLs. A token sees the intents created with any token of the same owner, except that a guest's storefront token sees only its own (see The store's own pages); an id that is malformed, unknown or someone else's is 404, all alike.",
      "An unpaid intent is `expired` the moment `expiresAt` passes (INTENT_TTL_SECONDS after creation, 15 minutes by default): it reads so at once, with `expiredAt` = `expiresAt`, can no longer be paid, and its gear unit is free for others at once. A background sweep records the expiry in the database within SWEEP_INTERVAL_MS (1 minute); what a reader sees does not change when it does.",
      "A promo-code use comes back when the intent is canceled, or when the sweep records its expiry; a paid intent keeps it.",
      "`callbackUrl` is notified of payments only (`intent.paid`, `data` = the intent as GET /intents/{intentId} returns it). Declines and expiries send nothing, so a receiver can never mistake one for a sale; read them with GET /intents/{intentId}.",
    ],
  },
  {
    title: "Payment page",
    body: [
      "POST /gifts/verify and POST /gear answer with `paymentUrl`: the store's payment page /pay/{intentId}, which shows what is bought, the amount and the time left, with Pay and Decline. It works without JavaScript. Whoever holds the link may pay, as with a hosted checkout session; the id is a random UUID.",
      "After Pay or Decline the buyer is redirected (303) to the intent's `successUrl` or `failureUrl` exactly as given when the intent was created (put your own order reference in it), or to the store's result page /pay/{intentId}/result when there is none. Only those validated URLs are ever used, so the page cannot be made an open redirect. `successUrl`, `failureUrl` and `callbackUrl` are accepted by POST /gifts/verify too.",
      "Pressing Pay again on a paid intent (or Decline on a declined one) lands where the first press did. Paying an expired or declined intent is refused, nothing is charged, and the page says why.",
      "PAYMENT_PROVIDER picks who takes the money. The built-in `sandbox` takes none and marks the page as a test (Тестовый режим / Sandbox); a real provider (YooKassa, Stripe) is one more adapter behind the same page.",
    ],
  },
  {
    title: "Idempotency",
    body: [
      "POST /gifts/verify and POST /gear accept an `Idempotency-Key` header: 1 to 255 printable ASCII characters, a UUID for example (anything else is 400). Keys belong to the token's owner: every token of one owner shares them, except a guest's storefront token, whose keys are its own (see The store's own pages).",
      "For 24 hours, the same key with the same body (compared as JSON, so key order and spacing do not matter) returns the first response again, the same status and body with `Idempotent-Replayed: true`, and creates nothing. The same key with a different body, or on the other endpoint, is 409. Concurrent requests with one key wait for the first and replay it: one intent is created.",
      "Only successful (2xx) responses are kept. A request that fails (400, 404, 409 out of stock, 500) leaves no trace, so a retry with the same key runs again, for example after correcting the body or once stock is back. After 24 hours a key counts as new.",
    ],
  },
  {
    title: "The store's own pages",
    body: [
      "The store's pages call these same endpoints from the browser, with a short-lived token that POST /api/storefront/token issues to same-origin requests only: scopes `catalog:read`, `gifts:verify`, `gear:create` and `intents:read`, valid for STOREFRONT_TOKEN_TTL_SECONDS (30 minutes by default), never listed among an account's tokens.",
      "A signed-in shopper's token belongs to them like any of their tokens: it reads their intents and shares their Idempotency-Keys. A guest's token belongs to the store's one guest owner, which every guest shares, so for it both narrow to the token itself: GET /intents/{intentId} shows only the intents that token created (another guest's is 404, exactly as an unknown id), and its Idempotency-Keys are its own (another guest's request with the same key creates an intent of its own and never replays this one's).",
      "A guest's new token (after its 30 minutes, or in another tab) therefore no longer reads the old token's intents through the API; the payment page /pay/{intentId} still shows an intent to whoever holds its link.",
    ],
  },
  CALLBACKS_GUIDE,
  {
    title: "Errors and limits",
    body: [
      "Every error is `{ code, message }` with `code` equal to the HTTP status and a message that names the field or resource. Validation failures are 400. Bodies must be `application/json` (415 otherwise), at most 64 KiB (413), and valid JSON objects (400); unknown body fields are 400, so a misspelt field is never silently ignored.",
      "An unknown path is 404; a wrong method is 405 with `Allow`. Anything unexpected is 500 with a generic message and the request id, which every response also carries in `X-Request-Id` and which the logs record.",
      "Successful creations answer 201 with `code: 201` in the body.",
      "Rate limits are counted in the store's database, so they hold however many servers answer. Each token may make RATE_LIMIT_PER_TOKEN requests (600 by default) per RATE_LIMIT_WINDOW_SECONDS (60). Requests without a valid token (missing, malformed, unknown, expired, revoked) count against the client's address instead, RATE_LIMIT_PER_IP (300) per window, so guessing tokens is limited too. Windows are fixed and aligned to the clock: a quota is whole again when its window ends, so a client may spend up to twice the quota across a window boundary.",
      "Wrong promo codes are limited more strictly, since a code is worth guessing: after RATE_LIMIT_PROMO (20) promo-code refusals (400 `promo code …`) for one token owner within RATE_LIMIT_STRICT_WINDOW_SECONDS (15 minutes), every request that carries a `code` is 429 until the window ends, the right code included, so a guess can no longer be told from a hit; requests without a code go on. The store's own pages count per client address.",
      "Every counted response carries the fields of the IETF draft `draft-ietf-httpapi-ratelimit-headers`: `RateLimit-Policy: \"token\";q=600;w=60` (the policy: its name, quota and window in seconds) and `RateLimit: \"token\";r=42;t=17` (requests left and seconds until the window ends). A request counted against two policies lists both, comma-separated. Past a limit the answer is 429 with `Retry-After` in seconds and a message that says which limit and when to retry: `{\"code\": 429, \"message\": \"too many requests: at most 600 requests with this token per 60 s; try again in 17 s\"}`. Wait that long; retrying sooner is refused again and counts.",
      "Every response carries `X-Request-Id`: the one the request sent when it is 1 to 128 letters, digits, `.`, `_` or `-` (so a gateway's id follows the request through), or a new UUID. Quote it when reporting a problem: the server's log has one line per request under it.",
    ],
  },
];

type JsonSchema = Record<string, unknown>;

/** Every schema the document describes; named ones among them (and within them) become components. */
const DOCUMENTED_SCHEMAS: z.ZodType[] = [
  errorSchema,
  catalogQuerySchema,
  catalogResponseSchema,
  gameDetailsSchema,
  gameLangQuerySchema,
  giftVerifyRequestSchema,
  giftVerifyResponseSchema,
  gearIntentRequestSchema,
  gearIntentResponseSchema,
  gearItemsQuerySchema,
  gearItemsResponseSchema,
  intentSchema,
];

/**
 * The named schemas reachable from DOCUMENTED_SCHEMAS, in a registry of their own. Next bundles a
 * module once per route, so one server process can hold two copies of a schema under one id in
 * zod's global registry (the API routes' and this page's); converting that registry would mix
 * copies. Walking from this module's own imports keeps to one copy.
 */
function documentRegistry() {
  const registry = z.registry<z.GlobalMeta>();
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== "object" || seen.has(value)) return;
    seen.add(value);
    if (value instanceof z.ZodType) {
      const meta = z.globalRegistry.get(value);
      if (meta) registry.add(value, meta);
      visit((value as unknown as { _zod: { def: unknown } })._zod.def);
      return;
    }
    for (const inner of Array.isArray(value) ? value : Object.values(value)) visit(inner);
  };
  for (const schema of DOCUMENTED_SCHEMAS) visit(schema);
  return registry;
}

function componentSchemas(io: "input" | "output"): Record<string, JsonSchema> {
  const registry = documentRegistry();
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: "any",
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) delete schema.$schema;
  return schemas;
}

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${z.globalRegistry.get(schema)?.id}` });

function queryParameters(schema: z.ZodObject) {
  return Object.entries(schema.shape).map(([name, field]) => {
    const json = z.toJSONSchema(field as z.ZodType, { io: "input", unrepresentable: "any" }) as JsonSchema;
    const { description, $schema: _, ...rest } = json;
    return { name, in: "query", required: false, description, schema: rest };
  });
}

const errorResponses = (statuses: Record<number, string>) =>
  Object.fromEntries(
    Object.entries(statuses).map(([status, description]) => [
      status,
      { description, content: { "application/json": { schema: ref(errorSchema) } } },
    ]),
  );

const AUTH_ERRORS = {
  401: "Missing, invalid, expired or revoked token",
  403: "The token lacks the scope",
  429: "Too many requests: a rate limit is used up (Retry-After says when to retry)",
};
const BODY_ERRORS = { 413: "Body over 64 KiB", 415: "Body is not application/json" };
const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: "A request header: printable ASCII, a UUID for example; the same key and body within 24 hours replays the first response",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

export function buildOpenApiDocument(serverUrl = "/api/v1") {
  const inputs = componentSchemas("input");
  const outputs = componentSchemas("output");
  const requestIds = new Set(["GiftVerifyRequest", "GearIntentRequest", "Attribution"]);
  const schemas = Object.fromEntries(
    Object.keys(outputs).map((id) => [id, requestIds.has(id) ? inputs[id] : outputs[id]]),
  );
  const json = (schema: z.ZodType) => ({ "application/json": { schema: ref(schema) } });

  return {
    openapi: "3.1.0",
    info: {
      title: "Gift catalog, gear intent and gift verification API",
      version: "1.0.0",
      description: API_GUIDE.map((s) => `## ${s.title}\n\n${s.body.join("\n\n")}`).join("\n\n"),
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths: {
      "/gifts/catalog": {
        get: {
          operationId: "listGiftCatalog",
          summary: "A page of giftable games, filtered and searched",
          "x-scope": "catalog:read",
          parameters: queryParameters(catalogQuerySchema),
          responses: {
            200: { description: "A page of games and the total matching the filters", content: json(catalogResponseSchema) },
            ...errorResponses({ 400: "A parameter is invalid; the message names it", ...AUTH_ERRORS }),
          },
        },
      },
      "/gifts/games/{appId}": {
        get: {
          operationId: "getGiftGame",
          summary: "One game with its editions and gift regions",
          "x-scope": "catalog:read",
          parameters: [
            { name: "appId", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
            ...queryParameters(gameLangQuerySchema),
          ],
          responses: {
            200: { description: "The game", content: json(gameDetailsSchema) },
            ...errorResponses({ 400: "A parameter is invalid", ...AUTH_ERRORS, 404: "Unknown game" }),
          },
        },
      },
      "/gifts/verify": {
        post: {
          operationId: "verifyGift",
          summary: "Check a gift can be bought and create an intent with the amount to pay",
          "x-scope": "gifts:verify",
          parameters: [IDEMPOTENCY_KEY_PARAMETER],
          requestBody: { required: true, content: json(giftVerifyRequestSchema) },
          responses: {
            201: { description: "Intent created (or replayed for an Idempotency-Key)", content: json(giftVerifyResponseSchema) },
            ...errorResponses({
              400: "Invalid field or Idempotency-Key, or an unknown, expired, used-up or inapplicable promo code",
              ...AUTH_ERRORS,
              404: "Unknown game, or a package that is not the game's",
              409: "Not purchasable now (coming soon, no price), not giftable to the region, or the Idempotency-Key was used with another body",
              ...BODY_ERRORS,
            }),
          },
        },
      },
      "/gear": {
        post: {
          operationId: "createGearIntent",
          summary: "Reserve a gear item for a gamer's account and create an intent",
          "x-scope": "gear:create",
          parameters: [IDEMPOTENCY_KEY_PARAMETER],
          requestBody: { required: true, content: json(gearIntentRequestSchema) },
          responses: {
            201: { description: "Item reserved and intent created (or replayed for an Idempotency-Key)", content: json(gearIntentResponseSchema) },
            ...errorResponses({
              400: "Invalid field (account, trade link, URL, fee ...), promo code or Idempotency-Key",
              ...AUTH_ERRORS,
              404: "Unknown platform or item",
              409: "Out of stock, or the Idempotency-Key was used with another body",
              ...BODY_ERRORS,
            }),
          },
        },
      },
      "/gear/items": {
        get: {
          operationId: "listGearItems",
          summary: "Gear items with price and availability",
          "x-scope": "catalog:read",
          parameters: queryParameters(gearItemsQuerySchema),
          responses: {
            200: { description: "A page of items", content: json(gearItemsResponseSchema) },
            ...errorResponses({ 400: "A parameter is invalid", ...AUTH_ERRORS }),
          },
        },
      },
      "/intents/{intentId}": {
        get: {
          operationId: "getIntent",
          summary: "An intent's status, amounts, what is bought and the time of each move",
          "x-scope": "intents:read",
          parameters: [{ name: "intentId", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            200: { description: "The intent, as of now (an unpaid intent past expiresAt is expired)", content: json(intentSchema) },
            ...errorResponses({ ...AUTH_ERRORS, 404: "No such intent among those the token may read: its owner's (a guest's storefront token: its own)" }),
          },
        },
      },
    },
    webhooks: CALLBACK_WEBHOOKS,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API token: gk_live_…" },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
