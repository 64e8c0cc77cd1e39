import { SIGN_IN_ERRORS } from "@/lib/auth/sign-in-errors";
import { forgetStorefrontToken } from "./api-client";

const AUTH_BASE = "/api/auth";
// Checked by hand rather than with zod: this module is in every page's bundle (the sign-out button).
function stringField(body: unknown, name: string): string | null {
  const value = body !== null && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" && value.length > 0 ? value : null;
}

export type SignInOutcome = { ok: true } | { ok: false; error: "invalid" | "tooMany" | "unavailable" };

/** next-auth's CSRF token for this browser (its cookie is set by the same answer). */
export async function csrfToken(): Promise<string> {
  const response = await fetch(`${AUTH_BASE}/csrf`, { credentials: "same-origin", cache: "no-store" });
  const token = stringField(await response.json().catch(() => null), "csrfToken");
  if (!token) throw new Error("the sign-in service answered without a CSRF token");
  return token;
}

/** next-auth answers `{url}`; a refusal is that URL's `error` parameter. */
async function postAuth(
  path: string,
  fields: Record<string, string>,
  csrf: Promise<string> = csrfToken(),
): Promise<{ ok: boolean; error: string | null }> {
  const body = new URLSearchParams({ ...fields, csrfToken: await csrf, json: "true" });
  const response = await fetch(`${AUTH_BASE}/${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  const url = stringField(await response.json().catch(() => null), "url");
  if (!url) return { ok: false, error: `status ${response.status}` };
  const error = new URL(url, window.location.origin).searchParams.get("error");
  return { ok: response.ok && !error, error };
}

/**
 * Signs in with e-mail and password through next-auth's credentials endpoint (its CSRF double
 * submit included), without next-auth's client: no provider round trip, and a failure stays on
 * our form instead of navigating to next-auth's error page. `csrf`: a token asked for earlier
 * (csrfToken()), so its round trip overlaps other work instead of coming first.
 */
export async function signInWithPassword(email: string, password: string, csrf?: Promise<string>): Promise<SignInOutcome> {
  try {
    const result = await postAuth("callback/credentials", { email, password, callbackUrl: window.location.href }, csrf);
    if (result.ok) {
      // The next /api/v1 call must get a token owned by this account, not the guest's.
      forgetStorefrontToken();
      return { ok: true };
    }
    if (result.error === SIGN_IN_ERRORS.invalid) return { ok: false, error: "invalid" };
    if (result.error === SIGN_IN_ERRORS.tooMany) return { ok: false, error: "tooMany" };
    return { ok: false, error: "unavailable" };
  } catch {
    return { ok: false, error: "unavailable" };
  }
}

/** Ends the session; false when the server could not be reached (the shopper is still signed in). */
export async function signOutSession(): Promise<boolean> {
  try {
    const result = await postAuth("signout", { callbackUrl: window.location.origin });
    forgetStorefrontToken();
    return result.ok;
  } catch {
    return false;
  }
}
