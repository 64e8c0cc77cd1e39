import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";

/** Where `npm start` keeps the secret it generated, so sessions survive a restart. */
export const AUTH_SECRET_FILE = ".data/auth-secret";

export class AuthConfigError extends Error {
  override name = "AuthConfigError";
}

/**
 * The secret in `file`, created (random, 256 bits, mode 0600) when missing or unusable. Two
 * processes starting at once both end up with the one that was written first.
 */
export function readOrCreateAuthSecret(file = path.resolve(AUTH_SECRET_FILE)): string {
  const existing = readSecret(file);
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  // Someone else wrote one first, or the one there is too short to use: take theirs or replace it.
  const raced = readSecret(file);
  if (raced) return raced;
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

function readSecret(file: string): string | null {
  try {
    const value = fs.readFileSync(file, "utf8").trim();
    return value.length >= 32 ? value : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

let devSecret: string | null = null;

/**
 * Signs and encrypts session cookies. AUTH_SECRET when set; in development and tests a generated
 * one from `.data/auth-secret`; in production without one, an error that says what to do, because
 * a secret made up per process would sign everyone out on each restart and differ between instances.
 */
export function authSecret(): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.NODE_ENV === "production") {
    throw new AuthConfigError(
      "AUTH_SECRET is not set: sign-in needs a secret of at least 32 characters shared by every instance " +
        "(e.g. `openssl rand -base64 32`). `npm start` creates one in .data/auth-secret by itself.",
    );
  }
  devSecret ??= readOrCreateAuthSecret();
  return devSecret;
}
