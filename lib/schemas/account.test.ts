import { describe, expect, it } from "vitest";
import { accountFieldErrors, safeReturnPath, signInRequestSchema, signUpRequestSchema } from "./account";

const signUpErrors = (input: unknown) => {
  const result = signUpRequestSchema.safeParse(input);
  return result.success ? {} : accountFieldErrors(result.error);
};

describe("sign-up schema", () => {
  it("accepts an e-mail and a 10-character password, trimming the e-mail", () => {
    expect(signUpRequestSchema.parse({ email: "  Gamer@Example.com ", password: "0123456789" })).toEqual({
      email: "Gamer@Example.com",
      password: "0123456789",
    });
  });

  it.each([
    [{ email: "", password: "long enough pass" }, { email: "email_required" }],
    [{ password: "long enough pass" }, { email: "email_required" }],
    [{ email: "   ", password: "long enough pass" }, { email: "email_required" }],
    [{ email: "not-an-email", password: "long enough pass" }, { email: "email_invalid" }],
    [{ email: `${"a".repeat(250)}@x.ru`, password: "long enough pass" }, { email: "email_too_long" }],
    [{ email: "a@example.com", password: "" }, { password: "password_required" }],
    [{ email: "a@example.com", password: "123456789" }, { password: "password_too_short" }],
    // Nine emoji are nine characters to the shopper, though eighteen UTF-16 units.
    [{ email: "a@example.com", password: "🎮".repeat(9) }, { password: "password_too_short" }],
    [{ email: "a@example.com", password: "x".repeat(201) }, { password: "password_too_long" }],
    [{ email: "longname@example.com", password: "LongName@Example.com" }, { password: "password_is_email" }],
    [{ email: "bad", password: "short" }, { email: "email_invalid", password: "password_too_short" }],
  ])("%j -> %j", (input, expected) => {
    expect(signUpErrors(input)).toEqual(expected);
  });

  it("counts an emoji as one character toward the minimum", () => {
    expect(signUpRequestSchema.safeParse({ email: "a@example.com", password: "🎮".repeat(10) }).success).toBe(true);
  });
});

describe("sign-in schema", () => {
  it("needs an e-mail and any non-empty password (old passwords may predate today's rules)", () => {
    expect(signInRequestSchema.safeParse({ email: "a@example.com", password: "x" }).success).toBe(true);
    const result = signInRequestSchema.safeParse({ email: "a@example.com", password: "" });
    expect(result.success ? {} : accountFieldErrors(result.error)).toEqual({ password: "password_required" });
  });

  it("ignores the extra fields next-auth posts with the credentials", () => {
    expect(signInRequestSchema.parse({ email: "a@example.com", password: "x", csrfToken: "t", json: "true" })).toEqual({
      email: "a@example.com",
      password: "x",
    });
  });
});

describe("safeReturnPath", () => {
  it.each([
    ["/account", "/account"],
    ["/gifts/620?from=header#top", "/gifts/620?from=header#top"],
    [undefined, "/account"],
    ["", "/account"],
    ["https://evil.example/", "/account"],
    ["//evil.example/path", "/account"],
    ["/\\evil.example", "/account"],
    ["javascript:alert(1)", "/account"],
    ["/ok\nLocation: x", "/account"],
    [["/a", "/b"], "/account"],
  ])("%j -> %s", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });
});
