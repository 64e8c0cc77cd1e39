import type { Reason, ReasonDetails } from "@/lib/errors";
import { tooManyRequestsHeaders, tooManyRequestsMessage } from "@/lib/rate-limit-headers";

interface CatalogueEntry<R extends Reason> {
  status: number;
  /** When a program sees this reason, for the reference page and the OpenAPI document. */
  summary: string;
  /** The `message` of the body: English, for the developer reading it. */
  message: (details: ReasonDetails[R]) => string;
  headers?: (details: ReasonDetails[R]) => Record<string, string>;
  /** Facts a program (or the store's own form) can use beside the reason, sent as the body's `details`. */
  details?: (details: ReasonDetails[R]) => Record<string, unknown>;
}

const bearerChallenge = (error: "invalid_request" | "invalid_token", description: string) => ({
  "WWW-Authenticate": `Bearer realm="api", error="${error}", error_description="${description}"`,
});

/**
 * The one catalogue of refusals: each reason's HTTP status, what it means, and its message. The
 * API wrapper alone reads statuses from here; which endpoints can answer a reason comes from their
 * descriptors (lib/api/endpoints.ts).
 */
export const REASONS: { [R in Reason]: CatalogueEntry<R> } = {
  invalid_field: {
    status: 400,
    summary: "A field or parameter is missing or invalid; `param` names it",
    message: (d) => d.message,
  },
  unknown_field: {
    status: 400,
    summary: "The body has a field the endpoint does not know (a misspelling is never ignored); `param` names it",
    message: (d) => `unknown field${d.fields.length > 1 ? "s" : ""}: ${d.fields.join(", ")}`,
  },
  trade_link_mismatch: {
    status: 400,
    summary: "The trade link belongs to another account than `account`",
    message: (d) => d.message,
  },
  invite_link_undecodable: {
    status: 400,
    summary: "The friend-invite link's code names no account (it is decoded offline: the account id in hex, written with bcdfghjkmnpqrtvw)",
    message: (d) => d.message,
  },
  invalid_body: {
    status: 400,
    summary: "The body is empty, not UTF-8, not JSON, or nested too deep",
    message: (d) =>
      ({
        empty: "the request body is empty: send a JSON object",
        not_utf8: "the request body is not valid UTF-8",
        not_json: "the request body is not valid JSON",
        too_deep: `the request body nests more than ${d.maxDepth ?? 32} levels deep`,
      })[d.problem],
  },
  invalid_path: {
    status: 400,
    summary: "The request's path has a percent-encoding that does not decode to UTF-8 (`%E0` alone, `%FF`, `%` without two hex digits)",
    message: () => "the request path has malformed percent-encoding: each % must start a UTF-8 character in hex",
  },
  body_too_large: {
    status: 413,
    summary: "The body is over 64 KiB",
    message: (d) => `the request body must be at most ${d.maxBytes / 1024} KiB`,
  },
  unsupported_media_type: {
    status: 415,
    summary: "The body is not `application/json`",
    message: () => "the request body must be JSON: send Content-Type: application/json",
  },
  invalid_idempotency_key: {
    status: 400,
    summary: "`Idempotency-Key` is not 1 to 255 printable ASCII characters",
    message: (d) => `${d.header} must be 1 to 255 printable ASCII characters (a UUID is a good choice)`,
  },
  idempotency_key_reused: {
    status: 409,
    summary: "The `Idempotency-Key` was used before with another body or on another endpoint",
    message: (d) =>
      d.usedFor
        ? `${d.header} "${d.key}" was already used for ${d.usedFor}; use a new key for a new request`
        : `${d.header} "${d.key}" was already used with a different request body; use a new key for a new request`,
  },
  missing_token: {
    status: 401,
    summary: "No `Authorization: Bearer` header",
    message: () => "missing bearer token: send Authorization: Bearer <token>",
    headers: () => ({ "WWW-Authenticate": 'Bearer realm="api"' }),
  },
  invalid_token: {
    status: 401,
    summary: "The Authorization header is malformed, or the token is not one the store issued",
    message: (d) =>
      d.problem === "authorization_header" ? "the Authorization header must be: Bearer <token>" : "the bearer token is not a valid token",
    headers: (d) =>
      d.problem === "authorization_header"
        ? bearerChallenge("invalid_request", "the Authorization header must be: Bearer <token>")
        : bearerChallenge("invalid_token", "the bearer token is not a valid token"),
  },
  token_expired: {
    status: 401,
    summary: "The token has expired",
    message: () => "the bearer token has expired",
    headers: () => bearerChallenge("invalid_token", "the bearer token has expired"),
  },
  token_revoked: {
    status: 401,
    summary: "The token has been revoked",
    message: () => "the bearer token has been revoked",
    headers: () => bearerChallenge("invalid_token", "the bearer token has been revoked"),
  },
  insufficient_scope: {
    status: 403,
    summary: "The token is valid but lacks the endpoint's scope",
    message: (d) => `this token lacks the "${d.scope}" scope`,
  },
  rate_limited: {
    status: 429,
    summary: "A rate limit is used up; `Retry-After` says when to retry",
    message: (d) => tooManyRequestsMessage(d.what, d.state),
    headers: (d) => tooManyRequestsHeaders(d.state, d.others),
  },
  forbidden_origin: {
    status: 403,
    summary: "The request must come from the store's own pages (storefront tokens, the pages' forms)",
    message: (d) => `${d.what} are only for the store's own pages`,
  },
  not_found: {
    status: 404,
    summary: "No such endpoint",
    message: (d) => `no such endpoint: ${d.method} ${d.path}`,
  },
  method_not_allowed: {
    status: 405,
    summary: "The endpoint does not take this method; `Allow` lists those it does",
    message: (d) => `${d.method} is not allowed here; allowed: ${d.allow}`,
    headers: (d) => ({ Allow: d.allow }),
  },
  service_unavailable: {
    status: 503,
    summary: "The store cannot answer right now; `Retry-After` says when to try again",
    message: (d) => d.what,
    headers: (d) => ({ "Retry-After": String(d.retryAfterSeconds ?? 5) }),
  },
  internal_error: {
    status: 500,
    summary: "Something unexpected failed; quote the request id",
    message: (d) => `internal error; quote request id ${d.requestId} when reporting it`,
  },
  game_not_found: {
    status: 404,
    summary: "No game with this appId",
    message: (d) => `game ${d.appId} not found`,
  },
  edition_not_found: {
    status: 404,
    summary: "The package is not an edition of the game, or the game has no edition on sale",
    message: (d) =>
      d.packageId === null ? `game ${d.appId} has no edition on sale` : `package ${d.packageId} is not an edition of game ${d.appId}`,
  },
  game_not_released: {
    status: 409,
    summary: "The game is not released yet and cannot be bought",
    message: (d) => `game ${d.appId} is not released yet and cannot be bought`,
  },
  game_not_priced: {
    status: 409,
    summary: "The game has no price and cannot be bought",
    message: (d) => `game ${d.appId} has no price yet and cannot be bought`,
  },
  region_not_giftable: {
    status: 409,
    summary: "The game cannot be gifted to the recipient's region",
    message: (d) =>
      `game ${d.appId} cannot be gifted to region ${d.region}${d.allowed.length ? `; it can be gifted to: ${d.allowed.join(", ")}` : ""}`,
    details: (d) => ({ region: d.region, allowedRegions: d.allowed }),
  },
  region_restricted: {
    status: 409,
    summary: "The edition may not be gifted to the recipient's region (the store does not sell it there)",
    message: (d) => `package ${d.packageId} of game ${d.appId} may not be gifted to region ${d.region}`,
    details: (d) => ({ region: d.region }),
  },
  region_price_gap: {
    status: 409,
    summary: "The edition's price in the recipient's region, converted to roubles, differs from the store's by more than GIFT_PRICE_GAP",
    message: (d) =>
      d.convertedAmount === null
        ? `package ${d.packageId} of game ${d.appId} cannot be gifted to region ${d.region}: there is no rate for ${d.currency}`
        : `package ${d.packageId} of game ${d.appId} cannot be gifted to region ${d.region}: its price there (${d.amount / 100} ${d.currency}, ${d.convertedAmount / 100} RUB) differs from the store's (${d.storeAmount / 100} RUB) by more than ${d.maxGapPercent} %`,
    details: (d) => ({
      region: d.region,
      currency: d.currency,
      amount: d.amount,
      convertedAmount: d.convertedAmount,
      storeAmount: d.storeAmount,
      maxGapPercent: d.maxGapPercent,
    }),
  },
  platform_not_found: {
    status: 404,
    summary: "No game with gear has this appId",
    message: (d) => `platform ${d.platform} not found`,
  },
  item_not_found: {
    status: 404,
    summary: "No such item on the platform",
    message: (d) => `item ${d.item} not found on platform ${d.platform}`,
  },
  out_of_stock: {
    status: 409,
    summary: "No unit of the item is left (paid or held by an unpaid intent)",
    message: (d) => `item ${d.item} is out of stock`,
    details: (d) => ({ item: d.item }),
  },
  gear_item_taken: {
    status: 409,
    summary: "The back office: the platform already has an item with this key",
    message: (d) => `platform ${d.platform} already has an item ${d.item}`,
  },
  stock_below_reserved: {
    status: 409,
    summary: "The back office: the stock would fall below the units live reservations hold (or below 0)",
    message: (d) => `the stock of ${d.item} cannot go below ${d.reserved}, the units unpaid orders hold`,
    details: (d) => ({ item: d.item, reserved: d.reserved }),
  },
  promo_code_unknown: {
    status: 400,
    summary: "No such promo code (counts as a promo-code guess)",
    message: (d) => `promo code ${d.code} does not exist`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_not_yet_valid: {
    status: 400,
    summary: "The promo code's validity window has not started (counts as a guess)",
    message: (d) => `promo code ${d.code} is not valid yet`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_expired: {
    status: 400,
    summary: "The promo code's validity window has ended (counts as a guess)",
    message: (d) => `promo code ${d.code} has expired`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_used_up: {
    status: 400,
    summary: "The promo code has reached its usage limit (not a guess: the code is real)",
    message: (d) => `promo code ${d.code} has reached its usage limit`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_not_for_gifts: {
    status: 400,
    summary: "The promo code is for gear only (counts as a guess)",
    message: (d) => `promo code ${d.code} does not apply to gifts`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_not_for_gear: {
    status: 400,
    summary: "The promo code is for gifts only (counts as a guess)",
    message: (d) => `promo code ${d.code} does not apply to gear`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_not_for_game: {
    status: 400,
    summary: "The promo code is limited to other games (counts as a guess)",
    message: (d) => `promo code ${d.code} does not apply to this game`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_not_for_platform: {
    status: 400,
    summary: "The promo code is limited to other games' gear (counts as a guess)",
    message: (d) => `promo code ${d.code} does not apply to this platform`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_not_found: {
    status: 404,
    summary: "The back office: no promo code has this id",
    message: (d) => `promo code ${d.id} not found`,
  },
  promo_code_taken: {
    status: 409,
    summary: "The back office: another promo code already has this code",
    message: (d) => `promo code ${d.code} already exists`,
    details: (d) => ({ code: d.code }),
  },
  promo_code_limit_below_uses: {
    status: 409,
    summary: "The back office: a usage limit below the code's uses so far",
    message: (d) => `promo code ${d.code} has been used ${d.uses} times; its limit cannot be lower`,
    details: (d) => ({ code: d.code, uses: d.uses }),
  },
  intent_not_found: {
    status: 404,
    summary: "No such intent among those the token may read",
    message: (d) => `intent ${d.intentId.slice(0, 64)} not found`,
  },
  intent_state_conflict: {
    status: 409,
    summary: "The intent is not in a state this move starts from",
    message: (d) => {
      if (d.current === d.target) return `intent ${d.intentId} is already ${d.current}`;
      if (d.current === "expired") return `intent ${d.intentId} has expired and can no longer be ${d.target}`;
      return `intent ${d.intentId} is ${d.current === "requires_payment" ? "not paid yet" : d.current} and cannot be ${d.target}`;
    },
  },
  intent_already_delivered: {
    status: 409,
    summary: "The order has been delivered: its money goes back only through the store's staff, who refund with a written reason",
    message: (d) =>
      `intent ${d.intentId} has been delivered and can no longer be refunded through the API; ask the store's support, who may refund it with a reason`,
  },
  partner_required: {
    status: 403,
    summary:
      "Only a partner account (one the store's admins manage) may do this: refund through the API, or hold a token with `intents:refund`",
    message: (d) =>
      d.what === "refund"
        ? "this token's account is not a partner, so it cannot refund; the store's admins make partners"
        : "only partner accounts may have tokens with intents:refund; the store's admins make partners",
  },
  partner_not_found: {
    status: 404,
    summary: "The back office: the account is not a partner",
    message: () => "this account is not a partner",
  },
  account_not_found: {
    status: 404,
    summary: "The back office: no account has this e-mail",
    message: () => "no account has this e-mail; the partner signs up on the store first",
  },
  permission_denied: {
    status: 403,
    summary: "The back office: the signed-in account's staff role does not allow this",
    message: (d) => `your staff role does not include "${d.permission}"`,
  },
  last_admin: {
    status: 409,
    summary: "The back office: the store's last admin cannot lose the role",
    message: () => "the store must keep at least one admin; make another admin first",
  },
  not_signed_in: {
    status: 401,
    summary: "The account page's action needs a signed-in user",
    message: () => "sign in first",
  },
  token_limit_reached: {
    status: 409,
    summary: "The account has as many active API tokens as it may",
    message: (d) => `an account may have at most ${d.max} active tokens; revoke one first`,
  },
  token_not_found: {
    status: 404,
    summary: "No such token among the account's",
    message: () => "no such token",
  },
  webhook_endpoint_limit_reached: {
    status: 409,
    summary: "The account has as many webhook endpoints as it may",
    message: (d) => `an account may have at most ${d.max} webhook endpoints; delete one first`,
  },
  webhook_endpoint_not_found: {
    status: 404,
    summary: "No such webhook endpoint among the account's",
    message: () => "no such webhook endpoint",
  },
  webhook_delivery_not_found: {
    status: 404,
    summary: "No such delivery to one of the account's webhook endpoints",
    message: () => "no such webhook delivery",
  },
  delivery_not_found: {
    status: 404,
    summary: "No such delivery",
    message: (d) => `delivery ${d.deliveryId.slice(0, 64)} not found`,
  },
  delivery_closed: {
    status: 409,
    summary: "The delivery has ended (delivered or failed) and cannot change",
    message: (d) => `delivery ${d.deliveryId} is ${d.status} and cannot change`,
  },
  delivery_taken: {
    status: 409,
    summary: "Someone else has taken this delivery",
    message: (d) => `delivery ${d.deliveryId} has been taken by someone else`,
  },
  delivery_not_taken: {
    status: 409,
    summary: "Take the delivery before reporting on it",
    message: (d) => `take delivery ${d.deliveryId} first`,
  },
  hold_limit_reached: {
    status: 409,
    summary:
      "This browser session, account (its storefront sessions and self-service tokens together), client address or partner already holds the most unpaid reservations and promo-code uses it may",
    message: (d) =>
      `this ${d.scope === "address" ? "client address" : d.scope} already has ${d.max} unpaid intents holding a gear unit or a promo-code use, the most allowed; pay or decline one, or wait until one expires`,
    details: (d) => ({ scope: d.scope, max: d.max }),
  },
  promo_code_held: {
    status: 409,
    summary: "This browser session or account already holds an unpaid use of this promo code (partners excepted)",
    message: (d) =>
      `this ${d.scope} already has an unpaid intent with promo code ${d.code}; pay or decline it, or wait until it expires, to use the code again`,
    details: (d) => ({ code: d.code }),
  },
  email_taken: {
    status: 409,
    summary: "Sign-up: an account with this e-mail exists",
    message: () => "an account with this e-mail exists",
  },
};

export const statusOf = (reason: Reason): number => REASONS[reason].status;

export function messageOf<R extends Reason>(reason: R, details: ReasonDetails[R]): string {
  return REASONS[reason].message(details);
}

export function detailsOf<R extends Reason>(reason: R, details: ReasonDetails[R]): Record<string, unknown> | undefined {
  return REASONS[reason].details?.(details);
}

export function headersOf<R extends Reason>(reason: R, details: ReasonDetails[R]): Record<string, string> {
  return REASONS[reason].headers?.(details) ?? {};
}
