"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { clientAddressOf } from "@/lib/api/request-context";
import { getSessionUser } from "@/lib/auth/session";
import { limitSignIn } from "@/lib/auth/sign-in-limiter";
import { getDb } from "@/lib/db/client";
import {
  accountFieldErrors,
  passwordChangeRequestSchema,
  type ChangePasswordResult,
  type ResendConfirmationResult,
} from "@/lib/schemas/account";
import { tokenCreateRequestSchema, type CreateTokenResult, type RevokeTokenResult, type TokenFormField } from "@/lib/schemas/tokens";
import { isDomainError, type DomainError } from "@/lib/errors";
import { originFromHeaders } from "@/lib/http/public-origin";
import { createAccountApiToken } from "@/lib/services/account";
import { resendEmailConfirmation } from "@/lib/services/email-confirmation";
import { revokeApiToken, type CreatedToken } from "@/lib/services/tokens";
import { changePassword, verifyUserCredentials } from "@/lib/services/users";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  resendWebhookDelivery,
  sendTestEvent,
  setWebhookEndpointEnabled,
  type WebhookEndpoint,
} from "@/lib/services/webhook-endpoints";
import {
  webhookEndpointCreateRequestSchema,
  type CreateWebhookEndpointResult,
  type ResendWebhookResult,
  type WebhookEndpointActionResult,
  type WebhookEndpointFormField,
  type WebhookSendLimited,
} from "@/lib/schemas/webhooks";

const DAY_MS = 24 * 3600 * 1000;

/**
 * An API token for the signed-in user; the whole token is returned this once only. `intents:refund`
 * is refused unless the account is a partner (lib/services/tokens.ts), whatever the form showed.
 */
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
    if (isDomainError(err, "partner_required")) return { ok: false, reason: err.reason };
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
  const parsed = await passwordChangeRequestSchema.safeParseAsync({ ...input, email: user.email });
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

/** A new confirmation link for the signed-in user's address, within the per-account limit (counted on the server). */
export async function resendConfirmationAction(): Promise<ResendConfirmationResult> {
  const user = await getSessionUser();
  if (!user) return { ok: false, reason: "not_signed_in" };
  const result = await resendEmailConfirmation(getDb(), user.id, originFromHeaders(await headers()));
  return result.ok ? result : { ok: false, reason: "rate_limited" };
}

/**
 * Registers a webhook endpoint for the signed-in user. The URL passes the callbackUrl rule here, on
 * the server, where WEBHOOK_ALLOW_HOSTS applies; the secret is returned with it to show at once.
 */
export async function createWebhookEndpointAction(input: unknown): Promise<CreateWebhookEndpointResult> {
  const user = await getSessionUser();
  if (!user) return { ok: false, reason: "not_signed_in" };
  const parsed = webhookEndpointCreateRequestSchema.safeParse(input);
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((i) => String(i.path[0]) as WebhookEndpointFormField));
    return { ok: false, reason: "invalid_field", fields: [...fields] };
  }
  let created: WebhookEndpoint;
  try {
    created = await createWebhookEndpoint(getDb(), { userId: user.id, ...parsed.data });
  } catch (err) {
    if (isDomainError(err, "webhook_endpoint_limit_reached")) return { ok: false, reason: err.reason, max: err.details.max };
    throw err;
  }
  revalidatePath("/account");
  return { ok: true, id: created.id, url: created.url, secret: created.secret };
}

/** Runs one operation on one of the signed-in user's endpoints; another user's id is "not found". */
async function onEndpoint(
  endpointId: unknown,
  operation: (userId: string, id: string) => Promise<unknown>,
): Promise<WebhookEndpointActionResult> {
  const user = await getSessionUser();
  if (!user) return { ok: false, reason: "not_signed_in" };
  const id = z.uuid().safeParse(endpointId);
  if (!id.success) return { ok: false, reason: "webhook_endpoint_not_found" };
  try {
    await operation(user.id, id.data);
  } catch (err) {
    if (isDomainError(err, "webhook_endpoint_not_found")) return { ok: false, reason: err.reason };
    if (isDomainError(err, "rate_limited")) return sendLimited(err);
    throw err;
  }
  revalidatePath("/account");
  return { ok: true };
}

export async function setWebhookEndpointEnabledAction(endpointId: unknown, enabled: unknown): Promise<WebhookEndpointActionResult> {
  return onEndpoint(endpointId, (userId, id) => setWebhookEndpointEnabled(getDb(), userId, id, enabled === true));
}

export async function deleteWebhookEndpointAction(endpointId: unknown): Promise<WebhookEndpointActionResult> {
  return onEndpoint(endpointId, (userId, id) => deleteWebhookEndpoint(getDb(), userId, id));
}

export async function sendTestWebhookAction(endpointId: unknown): Promise<WebhookEndpointActionResult> {
  return onEndpoint(endpointId, (userId, id) => sendTestEvent(getDb(), userId, id));
}

/** A fresh delivery of one of the user's endpoint deliveries: the same body and webhook-id. */
export async function resendWebhookDeliveryAction(deliveryId: unknown): Promise<ResendWebhookResult> {
  const user = await getSessionUser();
  if (!user) return { ok: false, reason: "not_signed_in" };
  const id = z.uuid().safeParse(deliveryId);
  if (!id.success) return { ok: false, reason: "webhook_delivery_not_found" };
  try {
    await resendWebhookDelivery(getDb(), user.id, id.data);
  } catch (err) {
    if (isDomainError(err, "webhook_delivery_not_found")) return { ok: false, reason: err.reason };
    if (isDomainError(err, "rate_limited")) return sendLimited(err);
    throw err;
  }
  revalidatePath("/account");
  return { ok: true };
}

/** A test event or resend past its endpoint's or account's limit (lib/services/webhook-endpoints.ts), as the page words it. */
function sendLimited(err: DomainError<"rate_limited">): WebhookSendLimited {
  const { state } = err.details;
  return {
    ok: false,
    reason: "rate_limited",
    per: state.policy === "webhook_sends_account" ? "account" : "endpoint",
    limit: state.limit,
    retryAfterSeconds: Math.max(1, state.resetSeconds),
  };
}
