"use server";

import { getDb } from "@/lib/db/client";
import { accountFieldErrors, signUpRequestSchema, type AccountFieldErrors } from "@/lib/schemas/account";
import { registerUser } from "@/lib/services/users";

export type SignUpResult = { ok: true } | { ok: false; errors: AccountFieldErrors };

/**
 * Creates the account; the form then signs in through next-auth with the same credentials, so the
 * session cookie is made in one place only. Server actions refuse cross-origin posts by themselves.
 */
export async function signUpAction(input: { email: string; password: string }): Promise<SignUpResult> {
  const parsed = signUpRequestSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: accountFieldErrors(parsed.error) };
  const result = await registerUser(getDb(), parsed.data);
  return result.ok ? { ok: true } : { ok: false, errors: { email: "email_taken" } };
}
