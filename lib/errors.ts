import type { IntentStatus } from "@/lib/intents/states";
import type { RateLimitState } from "@/lib/rate-limit-headers";

// Why a request was refused, as one word a program can branch on. Services throw a DomainError
// with its reason and the facts behind it; they never choose an HTTP status or write the English
// sentence. lib/api/reasons.ts gives each reason its status and message; the storefront gives it
// its Russian and English texts (lib/i18n/messages/errors.ts). Imports nothing that is server-only.

/** The facts each reason carries, for the API's message and the storefront's text. */
export interface ReasonDetails {
  // The request itself (lib/api/handler.ts)
  invalid_field: { message: string };
  unknown_field: { fields: string[] };
  trade_link_mismatch: { message: string };
  invite_link_undecodable: { message: string };
  invalid_body: { problem: "not_json" | "not_utf8" | "empty" | "too_deep"; maxDepth?: number };
  invalid_path: Record<string, never>;
  body_too_large: { maxBytes: number };
  unsupported_media_type: Record<string, never>;
  invalid_idempotency_key: { header: string };
  idempotency_key_reused: { header: string; key: string; usedFor: string | null };
  missing_token: Record<string, never>;
  invalid_token: { problem: "authorization_header" | "not_a_token" };
  token_expired: Record<string, never>;
  token_revoked: Record<string, never>;
  insufficient_scope: { scope: string };
  rate_limited: { what: string; state: RateLimitState; others?: RateLimitState[] };
  forbidden_origin: { what: string };
  not_found: { method: string; path: string };
  method_not_allowed: { method: string; allow: string };
  service_unavailable: { what: string; retryAfterSeconds?: number };
  internal_error: { requestId: string };
  // The catalog
  game_not_found: { appId: string | number };
  edition_not_found: { appId: number; packageId: number | null };
  game_not_released: { appId: number };
  game_not_priced: { appId: number };
  region_not_giftable: { appId: number; region: string; allowed: string[] };
  region_restricted: { appId: number; packageId: number; region: string };
  region_price_gap: {
    appId: number;
    packageId: number;
    region: string;
    currency: string;
    /** The local price, minor units of `currency`. */
    amount: number;
    /** The local price in kopecks at the current rate; null when the store has no rate for `currency`. */
    convertedAmount: number | null;
    storeAmount: number;
    maxGapPercent: number;
  };
  // Gear
  platform_not_found: { platform: number };
  item_not_found: { platform: number; item: string };
  out_of_stock: { item: string };
  gear_item_taken: { platform: number; item: string };
  stock_below_reserved: { item: string; reserved: number };
  // Promo codes
  promo_code_unknown: { code: string };
  promo_code_not_yet_valid: { code: string };
  promo_code_expired: { code: string };
  promo_code_used_up: { code: string };
  promo_code_not_for_gifts: { code: string };
  promo_code_not_for_gear: { code: string };
  promo_code_not_for_game: { code: string };
  promo_code_not_for_platform: { code: string };
  promo_code_not_found: { id: number };
  promo_code_taken: { code: string };
  promo_code_limit_below_uses: { code: string; uses: number };
  // Intents
  intent_not_found: { intentId: string };
  intent_state_conflict: { intentId: string; current: IntentStatus; target: IntentStatus };
  intent_already_delivered: { intentId: string };
  // Partners (/admin/partners): what only a partner account may do
  partner_required: { what: "intents:refund" | "refund" };
  partner_not_found: Record<string, never>;
  account_not_found: Record<string, never>;
  // Accounts and their tokens (the account page's own actions)
  not_signed_in: Record<string, never>;
  token_limit_reached: { max: number };
  token_not_found: Record<string, never>;
  email_taken: Record<string, never>;
  webhook_endpoint_limit_reached: { max: number };
  webhook_endpoint_not_found: Record<string, never>;
  webhook_delivery_not_found: Record<string, never>;
  // Deliveries (the fulfilment queue)
  delivery_not_found: { deliveryId: string };
  delivery_closed: { deliveryId: string; status: string };
  delivery_taken: { deliveryId: string };
  delivery_not_taken: { deliveryId: string };
  // The back office (lib/admin)
  permission_denied: { permission: string };
  last_admin: Record<string, never>;
  // Limits
  hold_limit_reached: { scope: "session" | "account" | "address" | "partner"; max: number };
  promo_code_held: { code: string; scope: "session" | "account" };
}

export type Reason = keyof ReasonDetails;

/** Reasons whose refusal counts as a promo-code guess against the stricter limit. */
export const PROMO_GUESS_REASONS = [
  "promo_code_unknown",
  "promo_code_not_yet_valid",
  "promo_code_expired",
  "promo_code_not_for_gifts",
  "promo_code_not_for_gear",
  "promo_code_not_for_game",
  "promo_code_not_for_platform",
] as const satisfies readonly Reason[];

/**
 * A refusal in the domain's terms: the reason, its facts, and the request field at fault (`param`,
 * as the request spells it: `target.region`). The API wrapper turns it into `{code, message, reason, param}`.
 */
export class DomainError<R extends Reason = Reason> extends Error {
  constructor(
    readonly reason: R,
    readonly details: ReasonDetails[R],
    readonly param?: string,
  ) {
    super(`${reason}${param ? ` (${param})` : ""}`);
    this.name = "DomainError";
  }
}

export function isDomainError<R extends Reason>(err: unknown, ...reasons: R[]): err is DomainError<R> {
  return err instanceof DomainError && (reasons.length === 0 || (reasons as Reason[]).includes(err.reason));
}

/** The error body every JSON endpoint answers a refusal with. */
export interface ErrorBody {
  code: number;
  message: string;
  reason: Reason;
  param?: string;
  /** Facts beside the reason, for the reasons whose catalogue entry names some (`allowedRegions`). */
  details?: Record<string, unknown>;
}
