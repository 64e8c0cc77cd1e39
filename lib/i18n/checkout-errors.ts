import type { z } from "zod";
import type { Reason } from "@/lib/errors";
import { format } from "./format";
import type { Messages } from "./messages";

// The checkout forms validate with the API's own schemas and call the API, which answers a refusal
// with a reason from one catalogue (lib/errors.ts). This turns both into the shopper's language,
// next to the field they are about, by the issue's path or the answer's reason and param: never by
// reading the API's English message.

export const CHECKOUT_FIELDS = [
  "platform",
  "item",
  "inviteUrl",
  "region",
  "packageId",
  "account",
  "tradeLink",
  "email",
  "fee",
  "code",
] as const;
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];
export type FieldErrors = Partial<Record<CheckoutField, string>>;

/** Request paths (as zod and the API's messages name them) of the fields a shopper fills in. */
const FIELD_BY_PATH: Record<string, CheckoutField> = {
  platform: "platform",
  item: "item",
  "target.inviteUrl": "inviteUrl",
  "target.region": "region",
  "target.packageId": "packageId",
  account: "account",
  "additionalFields.tradeLink": "tradeLink",
  email: "email",
  fee: "fee",
  code: "code",
};

type Kind = "required" | "invalid" | "tooLong" | "mismatch";
type FieldMessages = Partial<Record<Kind, string>> & { invalid: string };

function fieldMessages(t: Messages, field: CheckoutField): FieldMessages {
  return t.checkout.errors.fields[field];
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function issueKind(issue: z.core.$ZodIssue, input: unknown): Kind {
  // A well-formed value that names the wrong thing: a trade link of another account, an invite link whose code decodes to none.
  if (issue.code === "custom" && (issue.params?.reason === "trade_link_mismatch" || issue.params?.reason === "invite_link_undecodable"))
    return "mismatch";
  const value = valueAt(input, issue.path);
  if (value === undefined || (typeof value === "string" && value.trim() === "")) return "required";
  if (issue.code === "too_big") return "tooLong";
  return "invalid";
}

export interface LocalizedIssues {
  /** The first problem of each field, in the shopper's language. */
  fields: FieldErrors;
  /** Problems with no field on the form (should not happen), as the schema words them. */
  form: string[];
}

/** The shopper-language message for each field a failed parse of a checkout request found wrong. */
export function localizeIssues(error: z.ZodError, input: unknown, t: Messages): LocalizedIssues {
  const fields: FieldErrors = {};
  const form: string[] = [];
  for (const issue of error.issues) {
    const field = FIELD_BY_PATH[issue.path.map(String).join(".")];
    if (!field) {
      form.push(issue.message);
      continue;
    }
    if (fields[field]) continue;
    const messages = fieldMessages(t, field);
    fields[field] = messages[issueKind(issue, input)] ?? messages.invalid;
  }
  return { fields, form };
}

export interface ApiProblem {
  /** The field the problem is about, when there is one on the form. */
  field?: CheckoutField;
  message: string;
}

export interface ApiProblemContext {
  /** A region code as the shopper reads it ("Казахстан" for KZ). */
  regionName?: (code: string) => string;
  /** The regions the game can be gifted to, for the "not giftable there" text. */
  giftRegions?: readonly string[];
  /** The region the shopper chose. */
  region?: string;
  /** The title of the item the shopper chose, for the out-of-stock text. */
  itemTitle?: string;
  /** The promo code the shopper typed, as sent. */
  code?: string;
}

/** An /api/v1 refusal as the browser received it; null for a request that never got an answer. */
export interface ApiRefusal {
  status: number;
  reason: Reason | null;
  param?: string;
  message: string;
  /** The body's `details`, for the reasons that carry some: the server's facts beat the page's. */
  details?: Record<string, unknown>;
}

/** The form field a refusal is about when the answer has no `param` on the form. */
const FIELD_BY_REASON: Partial<Record<Reason, CheckoutField>> = {
  region_not_giftable: "region",
  region_restricted: "region",
  region_price_gap: "region",
  out_of_stock: "item",
  item_not_found: "item",
  platform_not_found: "platform",
  trade_link_mismatch: "tradeLink",
  invite_link_undecodable: "inviteUrl",
  edition_not_found: "packageId",
};

/**
 * What an /api/v1 refusal means for the shopper, beside the field it is about: the reason's text
 * (lib/i18n/messages/errors.ts) filled in from what the form knows; for `invalid_field`, the
 * field's own text. A reason this page does not know (a newer server) is shown with the store's
 * words, never a blank.
 */
export function localizeApiError(refusal: ApiRefusal | null, t: Messages, context: ApiProblemContext = {}): ApiProblem {
  if (refusal === null) return { message: t.checkout.errors.network };
  const { reason, param } = refusal;
  const paramField = param ? FIELD_BY_PATH[param] : undefined;
  if (reason === null || !(reason in t.errors.reasons)) {
    const details = format(t.checkout.errors.details, { message: refusal.message });
    return { field: paramField, message: refusal.status >= 500 ? `${t.checkout.errors.server} ${details}` : details };
  }
  if ((reason === "invalid_field" || reason === "unknown_field") && paramField) {
    return { field: paramField, message: fieldMessages(t, paramField).invalid };
  }
  const name = context.regionName ?? ((code: string) => code);
  const said = refusal.details ?? {};
  const text = (key: string) => (typeof said[key] === "string" ? (said[key] as string) : undefined);
  const allowed = Array.isArray(said.allowedRegions) ? said.allowedRegions.map(String) : (context.giftRegions ?? []);
  const region = text("region") ?? context.region;
  const values = {
    code: text("code") ?? context.code ?? "",
    item: context.itemTitle ?? text("item") ?? "",
    region: region ? name(region) : "",
    allowed: allowed.map(name).join(", ") || "—",
  };
  const field = reason.startsWith("promo_code_") ? "code" : FIELD_BY_REASON[reason];
  return { field, message: format(t.errors.reasons[reason], values) };
}
