import { z } from "zod";
import "./zod-config";

/**
 * Account forms' rules, shared by the browser form and the server. Their messages are codes, not
 * sentences: the form shows each in the visitor's language (`account.errors` in lib/i18n).
 */
export const ACCOUNT_ERROR_CODES = [
  "email_required",
  "email_invalid",
  "email_too_long",
  "email_taken",
  "password_required",
  "password_too_short",
  "password_too_long",
  "password_is_email",
] as const;
export type AccountErrorCode = (typeof ACCOUNT_ERROR_CODES)[number];

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

const code = (c: AccountErrorCode) => ({ error: c });

const accountEmailSchema = z
  .string(code("email_required"))
  .trim()
  .min(1, code("email_required"))
  .max(254, code("email_too_long"))
  .pipe(z.email(code("email_invalid")));

export const signUpRequestSchema = z
  .object({
    email: accountEmailSchema,
    // Length counts characters as the shopper sees them (an emoji is one), not UTF-16 units.
    password: z
      .string(code("password_required"))
      .min(1, code("password_required"))
      .refine((p) => [...p].length >= PASSWORD_MIN_LENGTH, code("password_too_short"))
      .refine((p) => [...p].length <= PASSWORD_MAX_LENGTH, code("password_too_long")),
  })
  .refine((v) => v.password.trim().toLowerCase() !== v.email.toLowerCase(), { ...code("password_is_email"), path: ["password"] });

export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

export const signInRequestSchema = z.object({
  email: accountEmailSchema,
  password: z.string(code("password_required")).min(1, code("password_required")).max(PASSWORD_MAX_LENGTH * 4, code("password_too_long")),
});

export type SignInRequest = z.infer<typeof signInRequestSchema>;

export type AccountFieldErrors = Partial<Record<"email" | "password", AccountErrorCode>>;

/** The first problem with each field, as codes, for the form to show beside the field. */
export function accountFieldErrors(error: z.ZodError): AccountFieldErrors {
  const out: AccountFieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if ((field === "email" || field === "password") && !out[field]) {
      out[field] = (ACCOUNT_ERROR_CODES as readonly string[]).includes(issue.message) ? (issue.message as AccountErrorCode) : field === "email" ? "email_invalid" : "password_required";
    }
  }
  return out;
}

/**
 * Where to go after signing in: a path on this site only. Anything else (another origin, `//host`,
 * a backslash trick) falls back to the account page, so the link cannot send a shopper away.
 */
export function safeReturnPath(value: unknown, fallback = "/account"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return fallback;
  if ([...value].some((ch) => ch.charCodeAt(0) < 0x20)) return fallback;
  return value.length > 2048 ? fallback : value;
}
