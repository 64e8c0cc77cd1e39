import type { z } from "zod";
import { format } from "./format";
import type { Messages } from "./messages";

// The checkout forms validate with the API's own schemas and call the API, whose messages are
// English sentences for developers. This turns both into the shopper's language, next to the
// field they are about; what it does not recognise it shows as the API said it.

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
  if (issue.code === "custom" && issue.params?.reason === "account_mismatch") return "mismatch";
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
  /** The title of the item the shopper chose, for the out-of-stock message. */
  itemTitle?: string;
}

const PROMO_PROBLEMS: [RegExp, keyof Messages["checkout"]["errors"]["fields"]["code"]][] = [
  [/^promo code (\S+) does not exist$/, "unknown"],
  [/^promo code (\S+) has expired$/, "expired"],
  [/^promo code (\S+) is not valid yet$/, "notYet"],
  [/^promo code (\S+) has reached its usage limit$/, "usedUp"],
  [/^promo code (\S+) does not apply to gifts$/, "notForGifts"],
  [/^promo code (\S+) does not apply to gear$/, "notForGear"],
  [/^promo code (\S+) does not apply to this game$/, "notForGame"],
  [/^promo code (\S+) does not apply to this platform$/, "notForPlatform"],
];

/**
 * What an /api/v1 error means for the shopper: `status` null is a request that never got an answer.
 * Known answers (409 region, 409 out of stock, 400 promo code, ...) get their own sentence beside
 * the field; anything else is shown with the API's own words, never a blank page.
 */
export function localizeApiError(status: number | null, message: string, t: Messages, context: ApiProblemContext = {}): ApiProblem {
  const e = t.checkout.errors;
  if (status === null) return { message: e.network };
  const name = context.regionName ?? ((code: string) => code);

  const region = /cannot be gifted to region (\w+)(?:; it can be gifted to: (.+))?$/.exec(message);
  if (status === 409 && region?.[1]) {
    const allowed = (region[2] ?? "").split(",").map((code) => name(code.trim())).filter(Boolean).join(", ");
    return { field: "region", message: format(e.fields.region.notGiftable, { region: name(region[1]), allowed: allowed || "—" }) };
  }
  if (status === 409 && /^item .+ is out of stock$/.test(message)) {
    const item = context.itemTitle ?? /^item (.+) is out of stock$/.exec(message)?.[1] ?? "";
    return { field: "item", message: format(e.fields.item.outOfStock, { item }) };
  }
  if (status === 409 && /is not released yet/.test(message)) return { message: e.notReleased };
  if (status === 409 && /has no price yet/.test(message)) return { message: e.noPrice };

  if (status === 400) {
    for (const [pattern, kind] of PROMO_PROBLEMS) {
      const code = pattern.exec(message)?.[1];
      if (code) return { field: "code", message: format(e.fields.code[kind], { code }) };
    }
    if (/belongs to another account than account$/.test(message)) return { field: "tradeLink", message: e.fields.tradeLink.mismatch };
    for (const [path, field] of Object.entries(FIELD_BY_PATH)) {
      if (message.startsWith(`${path} `) || message.startsWith(`${path}:`)) {
        const messages = fieldMessages(t, field);
        return { field, message: / is required$/.test(message) ? (messages.required ?? messages.invalid) : messages.invalid };
      }
    }
  }
  if (status === 404 && /^(item .+ not found on platform|platform \d+ not found)/.test(message)) {
    return { field: "item", message: e.fields.item.notFound };
  }
  if (status === 404 && /^(game \d+ not found|package \d+ is not an edition|game \d+ has no edition)/.test(message)) {
    return { message: e.gameNotFound };
  }
  if (status === 401 || status === 403) return { message: e.session };
  if (status === 429) return { message: e.rateLimited };
  if (status >= 500) return { message: `${e.server} ${format(e.details, { message })}` };
  return { message: format(e.details, { message }) };
}
