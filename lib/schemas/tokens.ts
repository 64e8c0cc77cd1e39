import { z } from "zod";
import "./zod-config";

export const API_SCOPES = ["catalog:read", "gifts:verify", "gear:create", "intents:read", "intents:refund"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Scopes only a partner account's token may hold (refunds: lib/intents/refund-policy.ts). */
export const PARTNER_ONLY_SCOPES: readonly ApiScope[] = ["intents:refund"];

export const apiScopeSchema = z.enum(API_SCOPES, { error: `scope must be one of: ${API_SCOPES.join(", ")}` });

export const tokenCreateRequestSchema = z.strictObject({
  name: z.string().trim().min(1, { error: "name must not be empty" }).max(100, { error: "name must be at most 100 characters" }),
  scopes: z.array(apiScopeSchema).min(1, { error: "scopes must name at least one scope" }),
  expiresInDays: z.int().min(1).max(3650).optional(),
});

export type TokenCreateRequest = z.infer<typeof tokenCreateRequestSchema>;

export type TokenFormField = keyof TokenCreateRequest;

/** What the account page's token actions answer: a refusal by its catalogue reason (lib/errors.ts). */
export type CreateTokenResult =
  | { ok: true; token: string; name: string; prefix: string }
  | { ok: false; reason: "not_signed_in" }
  | { ok: false; reason: "token_limit_reached"; max: number }
  | { ok: false; reason: "partner_required" }
  | { ok: false; reason: "invalid_field"; fields: TokenFormField[] };

export type RevokeTokenResult = { ok: true } | { ok: false; reason: "not_signed_in" | "token_not_found" };
