import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { authenticateToken } from "@/lib/services/tokens";
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.close());

function run(script: string, args: string[], databaseUrl = t.url, extraEnv: Record<string, string> = {}) {
  const root = path.resolve(import.meta.dirname, "../..");
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", `scripts/${script}`, ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, AUTH_CACHE_TTL_MS: "0", ...extraEnv },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const cli = (...args: string[]) => run("token.ts", args);

describe("token CLI", () => {
  it("creates a token, printed alone as the last line, that the API accepts", async () => {
    const created = cli("create", "--name", "ci", "--scopes", "catalog:read,gear:create", "--expires-in", "30d");
    expect(created.status).toBe(0);
    const token = created.stdout.trim().split("\n").at(-1)!;
    expect(token).toMatch(/^gk_live_[A-Za-z0-9]{43}$/);
    const auth = await authenticateToken(t.db, token);
    expect(auth).toMatchObject({ ok: true, token: { name: "ci", scopes: ["catalog:read", "gear:create"] } });

    const listed = cli("list", "--json");
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toContain(token);
    const rows = JSON.parse(listed.stdout) as { id: string; prefix: string; name: string; expiresAt: string }[];
    const row = rows.find((r) => r.name === "ci")!;
    expect(row.prefix).toBe(token.slice(0, 12));
    expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const revoked = cli("revoke", row.prefix);
    expect(revoked.status).toBe(0);
    // Revoked by another process: this one's cached lookup lapses within AUTH_CACHE_TTL_MS.
    const afterCache = new Date(Date.now() + env.AUTH_CACHE_TTL_MS + 1);
    expect(await authenticateToken(t.db, token, afterCache)).toEqual({ ok: false, reason: "revoked" });
  });

  it.each([
    [["create"], "--name is required (1 to 100 characters)"],
    [["create", "--name", "x", "--scopes", "admin"], 'unknown scope "admin"; scopes are: catalog:read, gifts:verify, gear:create'],
    [["create", "--name", "x", "--expires-in", "soon"], '--expires-in must be a number with s, m, h, d or w, such as 30d (got "soon")'],
    [["revoke", "gk_live_nope"], 'no active token matches "gk_live_nope"'],
    [["rotate"], 'unknown command "rotate"'],
    [["create", "--name", "x", "--colour", "red"], "Unknown option '--colour'"],
  ])("refuses %j with exit code 2", (args, message) => {
    const result = cli(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`token: ${message}`);
  });
});

describe("db:seed and catalog:import", () => {
  it("refuse a catalog that is already there with exit code 2", () => {
    const result = run("db-seed.ts", []);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^db:seed: the database already has 300 games; pass --force/);
  });

  it("migrate an empty database before writing to it", async () => {
    const empty = await createEmptyDatabase();
    try {
      const result = run("catalog-import.ts", ["tests/fixtures/appdetails-sample.json"], empty.url);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^Imported \d+ new games, updated 0/);
    } finally {
      await empty.drop();
    }
  });

  it.each([
    ["db-seed.ts", ["--games", "many"], 'db:seed: --games must be an integer from 7 to 1000000 (got "many")'],
    ["db-seed.ts", ["--fast"], "db:seed: Unknown option '--fast'"],
    ["catalog-import.ts", [], "catalog:import: give exactly one FILE fetched with cc=ru, and any number of CC=FILE"],
  ])("%s %j exits 2", (script, args, message) => {
    const result = run(script, args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

describe("a bad configuration", () => {
  it("stops every command with the variables named and no stack trace", () => {
    const result = run("token.ts", ["list"], t.url, { PORT: "abc", FEE_RATE: "2" });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      [
        "Invalid configuration (environment variables):",
        "  PORT: Invalid input: expected number, received NaN",
        "  FEE_RATE: Too big: expected number to be <=0.5",
      ].join("\n"),
    );
  });
});
