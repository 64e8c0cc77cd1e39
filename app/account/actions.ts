"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { clientAddressOf } from "@/lib/api/request-context";
import { getSessionUser } from "@/lib/auth/session";
import { limitSignIn } from "@/lib/auth/sign-in-limiter";
import { getDb } from "@/lib/db/client";
import { accountFieldErrors, passwordChangeRequestSchema, type ChangePasswordResult } from "@/lib/schemas/account";
import { tokenCreateRequestSchema, type CreateTokenResult, type RevokeTokenResult, type TokenFormField } from "@/lib/schemas/tokens";
import { isDomainError } from "@/lib/errors";
import { createAccountApiToken } from "@/lib/services/account";
import { revokeApiToken, type CreatedToken } from "@/lib/services/tokens";
import { changePassword, verifyUserCredentials } from "@/lib/services/users";

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
  const { name, scopes, expiresInDays } = parsed.data;
  const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * DAY_MS) : null;
  let created: CreatedToken;
  try {
    created = await createAccountApiToken(getDb(), { userId: user.id, name, scopes, expiresAt });
  } catch (err) {
    if (isDomainError(err, "token_limit_reached")) return { ok: false, reason: err.reason, max: err.details.max };
    throw err;
  }
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

/**
 * A new password for the signed-in user. The current one is checked under the sign-in limits (a
 * stolen session must not become a way to guess it); the change ends every session, this one too,
 * so the form signs in again with the new password.
 */
export async function changePasswordAction(input: { currentPassword: string; newPassword: string }): Promise<ChangePasswordResult> {
  const user = await getSessionUser();
  if (!user) return { ok: false, reason: "not_signed_in" };
  const parsed = passwordChangeRequestSchema.safeParse({ ...input, email: user.email });
  if (!parsed.success) return { ok: false, reason: "invalid_field", fields: accountFieldErrors(parsed.error) };
  const db = getDb();
  const { currentPassword, newPassword } = parsed.data;
  const checked = await limitSignIn(db, user.email, clientAddressOf(await headers()), () =>
    verifyUserCredentials(db, { email: user.email, password: currentPassword }),
  );
  if (!checked.ok) {
    return checked.reason === "rate_limited"
      ? { ok: false, reason: "rate_limited" }
      : { ok: false, reason: "invalid_field", fields: { currentPassword: "password_wrong" } };
  }
  await changePassword(db, user.id, newPassword);
  return { ok: true };
}
