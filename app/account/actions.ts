"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { tokenCreateRequestSchema, type CreateTokenResult, type RevokeTokenResult, type TokenFormField } from "@/lib/schemas/tokens";
import { countActiveApiTokens, MAX_ACTIVE_API_TOKENS } from "@/lib/services/account";
import { createApiToken, revokeApiToken } from "@/lib/services/tokens";

const DAY_MS = 24 * 3600 * 1000;

/** A partner API token for the signed-in user; the whole token is returned this once only. */
export async function createTokenAction(input: unknown): Promise<CreateTokenResult> {
  const user = await getSessionUser();
  if (!user) return { ok: false, reason: "not_signed_in" };
  const parsed = tokenCreateRequestSchema.safeParse(input);
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((i) => String(i.path[0]) as TokenFormField));
    return { ok: false, reason: "invalid_field", fields: [...fields] };
  }
  const db = getDb();
  if ((await countActiveApiTokens(db, user.id)) >= MAX_ACTIVE_API_TOKENS) return { ok: false, reason: "token_limit_reached", max: MAX_ACTIVE_API_TOKENS };
  const { name, scopes, expiresInDays } = parsed.data;
  const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * DAY_MS) : null;
  const created = await createApiToken(db, { userId: user.id, name, scopes, expiresAt });
  revalidatePath("/account");
  return { ok: true, token: created.token, name: created.name, prefix: created.prefix };
}

/** Revokes one of the signed-in user's tokens; another user's id is "not found", never revoked. */
export async function revokeTokenAction(tokenId: unknown): Promise<RevokeTokenResult> {
  const user = await getSessionUser();
  if (!user) return { ok: false, reason: "not_signed_in" };
  const id = z.uuid().safeParse(tokenId);
  if (!id.success) return { ok: false, reason: "token_not_found" };
  // This process forgets the token's cached lookup at once; other instances within AUTH_CACHE_TTL_MS.
  const revoked = await revokeApiToken(getDb(), id.data, user.id);
  if (revoked === 0) return { ok: false, reason: "token_not_found" };
  revalidatePath("/account");
  return { ok: true };
}
