import { describe, expect, it } from "vitest";
import {
  accountFieldErrors,
  passwordChangeRequestSchema,
  passwordProblem,
  safeReturnPath,
  signInRequestSchema,
  signUpRequestSchema,
} from "./account";

const signUpErrors = async (input: unknown) => {
  const result = await signUpRequestSchema.safeParseAsync(input);
  return result.success ? {} : accountFieldErrors(result.error);
};

describe("sign-up schema", () => {
  it("accepts an e-mail and a 10-character password, trimming the e-mail", async () => {
    expect(await signUpRequestSchema.parseAsync({ email: "  Gamer@Example.com ", password: "plum 7 kayak" })).toEqual({
      email: "Gamer@Example.com",
      password: "plum 7 kayak",
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
    [
      { email: "bad", password: "short" },
      { email: "email_invalid", password: "password_too_short" },
    ],
  ])("%j -> %j", async (input, expected) => {
    expect(await signUpErrors(input)).toEqual(expected);
  });

  it("counts an emoji as one character toward the minimum", async () => {
    expect((await signUpRequestSchema.safeParseAsync({ email: "a@example.com", password: "🎮🐉🎲🌵🎯🍕🎳🚀🧩🔑" })).success).toBe(true);
  });
});

describe("password rules", () => {
  it.each([
    ["aaaaaaaaaa", "password_too_simple"],
    ["🎮".repeat(10), "password_too_simple"],
    ["ZZZZZZZZZZZZZZZ", "password_too_simple"],
    ["abababababab", "password_too_simple"],
    ["123123123123", "password_too_simple"],
    ["0123456789", "password_too_simple"],
    ["9876543210", "password_too_simple"],
    ["abcdefghijkl", "password_too_simple"],
    ["asdfghjkl;", "password_too_simple"],
    ["йцукенгшщз", "password_too_simple"],
    ["фывапролдж", "password_too_simple"],
    // A keyboard row that is itself among the commonest passwords: the estimator finds it as a password first.
    ["qwertyuiop", "password_too_common"],
    ["QWERTYUIOP[]", "password_too_common"],
    ["1q2w3e4r5t", "password_too_common"],
    ["1qaz2wsx3edc", "password_too_common"],
    ["password123", "password_too_common"],
    ["Password2024!", "password_too_common"],
    ["P@ssw0rd1234", "password_too_common"],
    ["iloveyou!!", "password_too_common"],
    ["пароль12345", "password_too_common"],
    ["Солнышко2024", "password_too_common"],
    ["ghjcnjgfhjkm", "password_too_common"],
    ["football1234", "password_too_common"],
    // Issue 24: passed the hand-made rules. A run of letters, its capitals and digits; a walk down the keyboard.
    ["abcABC123!", "password_too_common"],
    ["zaq1xsw2cde3", "password_too_common"],
    ["Summer2024!!", "password_too_common"],
    ["Monkey12345!", "password_too_common"],
    ["gamer.pro@example.com", "password_is_email"],
    ["Gamer.Pro", "password_too_short"],
    ["gamer.pro2024", "password_is_email"],
    ["GamerPro!!!!", "password_is_email"],
    ["gamerpro1987", "password_is_email"],
  ])("refuses %j as %s", async (password, code) => {
    expect(await passwordProblem(password, "gamer.pro@example.com")).toBe(code);
  });

  it.each([
    "correct horse battery",
    "plum 7 kayak",
    "Tr0ub4dor&3x",
    "🎮🐉🎲🌵🎯🍕🎳🚀🧩🔑",
    "мой кот любит рыбу",
    "gamer pro plays chess",
    "violet tundra ferry oak 8",
    "kT9#vQ2!mZ",
  ])("accepts %j", async (password) => {
    expect(await passwordProblem(password, "gamer.pro@example.com")).toBeNull();
  });

  it("applies at sign-up", async () => {
    expect(await signUpErrors({ email: "a@example.com", password: "aaaaaaaaaa" })).toEqual({ password: "password_too_simple" });
    expect(await signUpErrors({ email: "a@example.com", password: "password123" })).toEqual({ password: "password_too_common" });
    expect(await signUpErrors({ email: "a@example.com", password: "abcABC123!" })).toEqual({ password: "password_too_common" });
  });

  it("applies to a new password, which must differ from the current one; the current one needs only to be given", async () => {
    const errors = async (input: object) => {
      const result = await passwordChangeRequestSchema.safeParseAsync({ email: "gamer.pro@example.com", ...input });
      return result.success ? {} : accountFieldErrors(result.error);
    };
    expect(await errors({ currentPassword: "old", newPassword: "plum 7 kayak" })).toEqual({});
    expect(await errors({ currentPassword: "", newPassword: "plum 7 kayak" })).toEqual({ currentPassword: "password_required" });
    expect(await errors({ currentPassword: "old", newPassword: "aaaaaaaaaaaa" })).toEqual({ newPassword: "password_too_simple" });
    expect(await errors({ currentPassword: "old", newPassword: "zaq1xsw2cde3" })).toEqual({ newPassword: "password_too_common" });
    expect(await errors({ currentPassword: "old", newPassword: "short" })).toEqual({ newPassword: "password_too_short" });
    expect(await errors({ currentPassword: "plum 7 kayak", newPassword: "plum 7 kayak" })).toEqual({ newPassword: "password_unchanged" });
  });

  it("judges the longest passwords in bounded time: only the first 64 characters are estimated", async () => {
    await passwordProblem("warm up the estimator", "a@example.com");
    for (const password of ["a1".repeat(100), "p@$$w0rd".repeat(25), "4@".repeat(100)]) {
      expect(await passwordProblem(password, "a@example.com")).not.toBeNull();
    }
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
