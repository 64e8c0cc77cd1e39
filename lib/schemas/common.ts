import { z } from "zod";
import { LOCALES } from "@/lib/i18n/config";
import { CURRENCY, FEE_MODES } from "@/lib/money";
import { classifyAddress } from "@/lib/webhooks/addresses";
import "./zod-config";

// Shared field rules. Each message names its field, because it is shown to API consumers verbatim.

export const errorSchema = z
  .object({
    code: z.int().meta({ description: "The HTTP status code of the response" }),
    message: z.string().meta({ description: "What went wrong, in English for a developer; may be reworded: branch on `reason`" }),
    reason: z
      .string()
      .meta({ description: "Why, as a stable snake_case word from the documented catalogue (an extension)", example: "out_of_stock" }),
    param: z
      .string()
      .optional()
      .meta({ description: "The request field at fault, as the request spells it (an extension)", example: "target.region" }),
    details: z.record(z.string(), z.unknown()).optional().meta({
      description:
        "Facts beside the reason, for some reasons (an extension): `allowedRegions` for region_not_giftable, `code` for promo_code_*, `item` for out_of_stock",
    }),
  })
  .meta({ id: "Error" });

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id the database could hold (intents, tokens): anything else is "not found" without a query. */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

export const emailSchema = (field = "email") =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .max(254, { error: `${field} must be at most 254 characters` })
    .pipe(z.email({ error: `${field} must be a valid e-mail address` }))
    .meta({ format: "email", example: "gamer@example.com" });

/** The shopper's language, which their mail (receipt, delivery, refund) is written in (an extension). */
export const localeSchema = z
  .enum(LOCALES, { error: `locale must be one of: ${LOCALES.join(", ")}` })
  .meta({ description: "The shopper's language for the mail about this purchase (receipt, delivery, refund); ru when absent" });

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Where the store may send a shopper: absolute https, or http on loopback (development). The
 * output is the URL's normalised `href` (punycode host, percent-encoded path, tabs and line breaks
 * dropped), which is ASCII and so always fits the `Location` header it ends up in.
 */
export const redirectUrlSchema = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(2048, { error: `${field} must be at most 2048 characters` })
    .refine((value) => redirectUrlOf(value) !== null, { error: `${field} must be an absolute https:// URL (http:// only for localhost)` })
    .transform((value) => redirectUrlOf(value)!.href)
    .meta({ format: "uri", example: "https://partner.example.com/return" });

/** `value` as a URL the store may redirect a shopper to, or null. */
export function redirectUrlOf(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) ? url : null;
}

// Names that only ever mean this machine or its own network: RFC 6761 (localhost), RFC 6762
// (.local), RFC 8375 (home.arpa), ICANN's private-use .internal (cloud metadata lives there),
// and single labels, which reach a host only through the local resolver's search domains.
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|localdomain)$|^[^.]+$/;

/** Hosts (lower-case, IPv6 without brackets) exempt from the callback rules: WEBHOOK_ALLOW_HOSTS. */
let callbackAllowHosts: ReadonlySet<string> = new Set();

/**
 * Opens hosts to callbackUrl that the rule below refuses (development and tests), exactly as the
 * callback sender opens them: lib/env.ts passes WEBHOOK_ALLOW_HOSTS once at start. Nothing calls it
 * in the browser, where the strict rule holds.
 */
export function allowCallbackHosts(hosts: Iterable<string>): void {
  callbackAllowHosts = new Set(
    [...hosts]
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, "$1"),
      )
      .filter(Boolean),
  );
}

/**
 * Where the store POSTs a paid intent's callback: absolute https on a public host. Literal
 * addresses that are not public and names that can only be local are refused here, when the intent
 * is created, rather than retried for a day; the sender checks every resolved address again.
 * No DNS here: a name's addresses can change before delivery anyway.
 */
export const callbackUrlSchema = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(2048, { error: `${field} must be at most 2048 characters` })
    .superRefine((value, ctx) => {
      const problem = callbackUrlProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: `${field} ${problem}` });
    })
    .meta({ format: "uri", example: "https://partner.example.com/hooks/giftkey" });

function callbackUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute https:// URL";
  }
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  const allowed = callbackAllowHosts.has(host);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowed)) return "must be an absolute https:// URL";
  if (url.username || url.password) return "must not carry a user name or password";
  if (allowed) return null;
  const kind = classifyAddress(host);
  if (kind === "invalid") {
    return LOCAL_NAME.test(host.replace(/\.$/, "")) ? `must be a public address the store can reach: ${host} is a local name` : null;
  }
  if (kind === "public") return null;
  return `must be a public address the store can reach: ${host} is ${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind} address`;
}

/** A store app id: positive digits that fit the database's integer (at most 2 147 483 647). */
export function isAppId(value: string): boolean {
  return /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647;
}

/** A positive integer id given as digits or a JSON number (`"620"` or `620`). */
export const appIdSchema = (field: string) =>
  z
    .union([z.string(), z.number()], { error: `${field} must be the game's appId (a positive integer)` })
    .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
    .refine(isAppId, {
      error: `${field} must be the game's appId (a positive integer)`,
    })
    .transform(Number)
    .meta({ description: "Store application id (digits)", example: "620" });

export const promoCodeSchema = z
  .string({ error: "code must be a string" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "code must be a promo code of 1 to 64 letters, digits, '-' or '_'" })
  .transform((v) => v.toUpperCase())
  .meta({ description: "Promo code, case-insensitive", example: "WELCOME10" });

const utmValue = (field: string) =>
  z
    .string({ error: `attribution.${field} must be a string` })
    .trim()
    .min(1, { error: `attribution.${field} must not be empty` })
    .max(200, { error: `attribution.${field} must be at most 200 characters` });

export const attributionSchema = z
  .strictObject(
    {
      utm_source: utmValue("utm_source").optional(),
      utm_medium: utmValue("utm_medium").optional(),
      utm_campaign: utmValue("utm_campaign").optional(),
      utm_content: utmValue("utm_content").optional(),
      utm_term: utmValue("utm_term").optional(),
    },
    { error: "attribution must be an object" },
  )
  .meta({ id: "Attribution", description: "Marketing attribution of the visit that led to the purchase" });

export type Attribution = z.infer<typeof attributionSchema>;

/** Beyond the description, in both intent responses: how the amount came about and until when it holds. */
export const intentBreakdownShape = {
  discountAmount: z.int().meta({ description: "Taken off by the promo code, kopecks (0 without one)" }),
  feeAmount: z
    .int()
    .meta({ description: "The store's fee, kopecks: on top for `excluded` and `naive`, carved out of the price for `included`" }),
  expiresAt: z.iso.datetime().meta({ description: "When the unpaid intent expires (and a gear reservation frees its unit)" }),
};

/** One reason the quoted purchase would be refused now, as the creating endpoint would answer it. */
export const quoteRefusalSchema = z
  .object({
    reason: z
      .string()
      .meta({ description: "A reason from the catalogue, as the creating endpoint would answer it", example: "out_of_stock" }),
    param: z.string().optional().meta({ description: "The request field at fault", example: "code" }),
    message: z.string().meta({ description: "The creating endpoint's message for it, in English" }),
  })
  .meta({ id: "QuoteRefusal" });

/**
 * What a purchase would cost and every reason it would be refused, answered by POST /gifts/quote and
 * POST /gear/quote without creating or holding anything. A wrong promo code is listed and not applied.
 */
export const quoteResponseSchema = z
  .object({
    code: z.literal(200),
    purchasable: z.boolean().meta({ description: "True when `refusals` is empty: the creating endpoint would now accept this body" }),
    intentAmount: z.int().nullable().meta({ description: "The price before promo code and fee, kopecks; null when there is no price" }),
    intentCurrency: z.literal(CURRENCY),
    discountAmount: z.int().meta({ description: "Taken off by the promo code when it applies, kopecks (0 otherwise)" }),
    feeAmount: z.int().meta({ description: "The store's fee, kopecks, as the intent would record it" }),
    paymentAmount: z.int().nullable().meta({ description: "What the buyer would pay, kopecks; null when there is no price" }),
    paymentCurrency: z.literal(CURRENCY),
    fee: z.enum(FEE_MODES).meta({ description: "The fee mode the amounts are computed with" }),
    refusals: z.array(quoteRefusalSchema),
  })
  .meta({ id: "Quote" });

export type QuoteResponse = z.infer<typeof quoteResponseSchema>;

/** Query strings: an empty value (`?genre=`) means the parameter was not given. */
export const emptyToUndefined = (v: unknown) => (v === "" ? undefined : v);

export const queryIntSchema = (field: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .refine((v) => v === undefined || (/^\d{1,10}$/.test(v) && Number(v) >= min && Number(v) <= max), {
        error: `${field} must be an integer from ${min} to ${max}`,
      })
      .transform((v) => (v === undefined ? fallback : Number(v)))
      .meta({ type: "integer", minimum: min, maximum: max, default: fallback }),
  );
