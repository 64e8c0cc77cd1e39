import { z } from "zod";
import { passwordWeakness } from "./password-strength";
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
  "password_too_simple",
  "password_too_common",
  "password_too_weak",
  "password_unchanged",
  "password_wrong",
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

/** Digits, punctuation, symbols and spaces people pad a word with. */
const PADDING = /[\p{N}\p{P}\p{S}\s]+$/u;
const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The e-mail address, or the name before its @, with or without padding and punctuation. */
function passwordIsEmail(password: string, email: string): boolean {
  const forms = [email, email.split("@")[0] ?? ""].map(letters).filter((f) => f.length >= 3);
  return [password, password.replace(PADDING, "")].some((p) => forms.includes(letters(p)));
}

/** The account's own words, which the estimator counts as the first a guesser tries. */
function emailWords(email: string): string[] {
  const name = email.split("@")[0] ?? "";
  return [email, name, letters(name), ...name.split(/[^\p{L}\p{N}]+/u)].filter((w) => w.length >= 3);
}

const passwordLength = (p: string) => [...p].length;

/** A password someone chooses now (sign-up, change): its length here; its strength needs the e-mail (`strengthCheck`). */
const newPasswordSchema = z
  .string(code("password_required"))
  .min(1, code("password_required"))
  // Length counts characters as the shopper sees them (an emoji is one), not UTF-16 units.
  .refine((p) => passwordLength(p) >= PASSWORD_MIN_LENGTH, code("password_too_short"))
  .refine((p) => passwordLength(p) <= PASSWORD_MAX_LENGTH, code("password_too_long"));

/**
 * Not the account's e-mail or name, and not easy to guess (./password-strength.ts). Asynchronous:
 * the estimator's dictionaries load on first use, so these schemas are parsed with `safeParseAsync`.
 */
function strengthCheck<K extends string>(field: K) {
  return async (value: { email: string } & Record<K, string>, ctx: z.RefinementCtx) => {
    const password = value[field];
    const problem = passwordIsEmail(password, value.email)
      ? "password_is_email"
      : await passwordWeakness(password, emailWords(value.email));
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: [field] });
  };
}

/** The first rule a new password breaks for this account's e-mail, or null. */
export async function passwordProblem(password: string, email: string): Promise<AccountErrorCode | null> {
  const result = await signUpRequestSchema.safeParseAsync({ email, password });
  return result.success ? null : (accountFieldErrors(result.error).password ?? null);
}

export const signUpRequestSchema = z
  .object({ email: accountEmailSchema, password: newPasswordSchema })
  .superRefine(strengthCheck("password"));

export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

export const signInRequestSchema = z.object({
  email: accountEmailSchema,
  password: z
    .string(code("password_required"))
    .min(1, code("password_required"))
    .max(PASSWORD_MAX_LENGTH * 4, code("password_too_long")),
});

export type SignInRequest = z.infer<typeof signInRequestSchema>;

/**
 * Changing the password: the current one (checked by the server like a sign-in) and a new one under
 * the sign-up rules. `email` is the account's, filled in by the server from the session.
 */
export const passwordChangeRequestSchema = z
  .object({
    email: accountEmailSchema,
    currentPassword: z
      .string(code("password_required"))
      .min(1, code("password_required"))
      .max(PASSWORD_MAX_LENGTH * 4, code("password_too_long")),
    newPassword: newPasswordSchema,
  })
  .refine((v) => v.newPassword !== v.currentPassword, { ...code("password_unchanged"), path: ["newPassword"] })
  .superRefine(strengthCheck("newPassword"));

export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

const FIELDS = ["email", "password", "currentPassword", "newPassword"] as const;
type AccountField = (typeof FIELDS)[number];

export type AccountFieldErrors = Partial<Record<AccountField, AccountErrorCode>>;

/** The first problem with each field, as codes, for the form to show beside the field. */
export function accountFieldErrors(error: z.ZodError): AccountFieldErrors {
  const out: AccountFieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === "string" && (FIELDS as readonly string[]).includes(field) && !out[field as AccountField]) {
      const known = (ACCOUNT_ERROR_CODES as readonly string[]).includes(issue.message);
      out[field as AccountField] = known ? (issue.message as AccountErrorCode) : field === "email" ? "email_invalid" : "password_required";
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

/** What the account page's password change answers: a refusal by its catalogue reason (lib/errors.ts). */
export type ChangePasswordResult =
  | { ok: true }
  | { ok: false; reason: "not_signed_in" | "rate_limited" }
  | { ok: false; reason: "invalid_field"; fields: AccountFieldErrors };

/** What the account page's "send the e-mail again" answers: whether a mail went, or why not (catalogue reasons). */
export type ResendConfirmationResult = { ok: true; sent: boolean } | { ok: false; reason: "not_signed_in" | "rate_limited" };
