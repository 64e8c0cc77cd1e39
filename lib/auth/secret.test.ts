import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readOrCreateAuthSecret } from "./secret";

const dirs: string[] = [];
const tempFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-auth-secret-"));
  dirs.push(dir);
  return path.join(dir, "nested", "auth-secret");
};

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("readOrCreateAuthSecret", () => {
  it("creates a 256-bit secret readable only by its owner, then keeps returning it", () => {
    const file = tempFile();
    const secret = readOrCreateAuthSecret(file);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateAuthSecret(file)).toBe(secret);
  });

  it("replaces a file too short to be a secret", () => {
    const file = tempFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "short\n");
    const secret = readOrCreateAuthSecret(file);
    expect(secret).toHaveLength(43);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(secret);
  });
});

describe("authSecret", () => {
  it("is AUTH_SECRET when set", async () => {
    vi.stubEnv("AUTH_SECRET", "x".repeat(40));
    const { authSecret } = await import("./secret");
    expect(authSecret()).toBe("x".repeat(40));
  });

  it("refuses to make one up in production, saying what to set", async () => {
    vi.stubEnv("AUTH_SECRET", "");
    vi.stubEnv("NODE_ENV", "production");
    const { authSecret } = await import("./secret");
    expect(() => authSecret()).toThrow(
      /^AUTH_SECRET is not set: sign-in needs a secret of at least 32 characters shared by every instance/,
    );
  });
});
