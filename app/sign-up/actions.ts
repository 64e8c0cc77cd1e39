"use server";

import { headers } from "next/headers";
import { clientAddressOf } from "@/lib/api/request-context";
import { getDb } from "@/lib/db/client";
import { accountFieldErrors, signUpRequestSchema, type AccountFieldErrors } from "@/lib/schemas/account";
import { POLICIES, hitRateLimit, rateLimitsEnabled, recordRateLimited } from "@/lib/services/rate-limits";
import { originFromHeaders } from "@/lib/http/public-origin";
import { getLocale } from "@/lib/i18n/server";
import { registerUser } from "@/lib/services/users";

export type SignUpResult = { ok: true } | { ok: false; errors: AccountFieldErrors } | { ok: false; rateLimited: true };

/**
 * Creates the account; the form then signs in through next-auth with the same credentials, so the
 * session cookie is made in one place only. Server actions refuse cross-origin posts by themselves.
 * Each attempt counts against the client's address (the per-address limit), so accounts cannot be
 * created, or e-mail addresses probed for existing accounts, in bulk.
 */
export async function signUpAction(input: { email: string; password: string }): Promise<SignUpResult> {
  const db = getDb();
  if (rateLimitsEnabled()) {
    const limit = await hitRateLimit(db, `ip:${clientAddressOf(await headers())}`, POLICIES.ip);
    if (!limit.allowed) {
      recordRateLimited(limit);
      return { ok: false, rateLimited: true };
    }
  }
  const parsed = await signUpRequestSchema.safeParseAsync(input);
  if (!parsed.success) return { ok: false, errors: accountFieldErrors(parsed.error) };
  const requestHeaders = await headers();
  const result = await registerUser(db, parsed.data, { locale: await getLocale(), origin: originFromHeaders(requestHeaders) });
  return result.ok ? { ok: true } : { ok: false, errors: { email: "email_taken" } };
}
