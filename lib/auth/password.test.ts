import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from "./password";

// Each hash costs ~100 ms of CPU by design; on a busy 2-core machine a test of several needs more than 5 s.
describe("password hashing", { timeout: 30_000 }, () => {
  it("stores scrypt$N$r$p$salt$hash with base64url parts and today's parameters", async () => {
    const hash = await hashPassword("correct horse battery");
    const [scheme, n, r, p, salt, key, ...rest] = hash.split("$");
    expect([scheme, Number(n), Number(r), Number(p), rest.length]).toEqual([
      "scrypt",
      SCRYPT_PARAMS.N,
      SCRYPT_PARAMS.r,
      SCRYPT_PARAMS.p,
      0,
    ]);
    expect(Buffer.from(salt!, "base64url")).toHaveLength(16);
    expect(Buffer.from(key!, "base64url")).toHaveLength(32);
    expect(salt).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(needsRehash(hash)).toBe(false);
  });

  it("salts every hash, so one password never hashes the same twice", async () => {
    expect(await hashPassword("same password")).not.toBe(await hashPassword("same password"));
  });

  it("verifies the right password and refuses near misses", async () => {
    const hash = await hashPassword("Пароль с пробелами 🎮");
    expect(await verifyPassword("Пароль с пробелами 🎮", hash)).toBe(true);
    for (const wrong of ["пароль с пробелами 🎮", "Пароль с пробелами", "Пароль с пробелами 🎮 ", ""]) {
      expect(await verifyPassword(wrong, hash), JSON.stringify(wrong)).toBe(false);
    }
  });

  it("treats compatibility forms of one character as the same (NFKC)", async () => {
    // U+FB01 "ﬁ" ligature vs "f" + "i"; fullwidth digits vs ASCII digits.
    const hash = await hashPassword("ﬁle１２３４５６");
    expect(await verifyPassword("file123456", hash)).toBe(true);
  });

  it("verifies hashes made with other (older) parameters and flags them for an upgrade", async () => {
    const { scryptSync } = await import("node:crypto");
    const salt = Buffer.from("0123456789abcdef");
    const key = scryptSync("old password", salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = `scrypt$16384$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
    expect(await verifyPassword("old password", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["another scheme", "bcrypt$2b$10$abcdefghijklmnopqrstuv"],
    ["too few parts", "scrypt$32768$8$1$c2FsdA"],
    ["N not a power of two", "scrypt$30000$8$1$MDEyMzQ1Njc4OWFiY2RlZg$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"],
    ["N beyond the cap (a memory bomb)", "scrypt$2147483648$8$1$MDEyMzQ1Njc4OWFiY2RlZg$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"],
    ["r beyond the cap", "scrypt$16384$1000$1$MDEyMzQ1Njc4OWFiY2RlZg$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"],
    ["non-numeric p", "scrypt$16384$8$x$MDEyMzQ1Njc4OWFiY2RlZg$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"],
    ["short salt", "scrypt$16384$8$1$YQ$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"],
  ])("refuses an unreadable stored hash (%s) with false, not an exception", async (_why, stored) => {
    expect(await verifyPassword("anything", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });
});
