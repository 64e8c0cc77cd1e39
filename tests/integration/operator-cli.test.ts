import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { env } from "@/lib/env";
import { isPartner } from "@/lib/services/partners";
import { authenticateToken, ensureUser } from "@/lib/services/tokens";
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

describe("token CLI and partners", () => {
  const lastLine = (out: string) => out.trim().split("\n").at(-1)!;
  const auditOf = async (email: string) =>
    (
      await t.db.execute<{ action: string; actor: string }>(sql`SELECT a.action, a.actor FROM audit_log a
        JOIN users u ON a.target_type = 'user' AND a.target_id = u.id::text WHERE lower(u.email) = lower(${email}) ORDER BY a.id`)
    ).rows;

  it("makes the default owner, the store's operator account, a partner with every scope", async () => {
    const created = cli("create", "--name", "ops");
    expect(created.status).toBe(0);
    const auth = await authenticateToken(t.db, lastLine(created.stdout));
    expect(auth).toMatchObject({ ok: true, token: { scopes: expect.arrayContaining(["intents:refund"]) } });
    expect(await isPartner(t.db, await ensureUser(t.db, "operator@localhost"))).toBe(true);
  });

  it("gives another account's token every scope but intents:refund while it is not a partner", async () => {
    const created = cli("create", "--name", "shop", "--owner", "cli-shopper@example.com");
    expect(created.status).toBe(0);
    const auth = await authenticateToken(t.db, lastLine(created.stdout));
    expect(auth.ok && auth.token.scopes).toEqual(["catalog:read", "gifts:verify", "gear:create", "intents:read"]);
    expect(created.stderr).toContain("not a partner");
    expect(await isPartner(t.db, await ensureUser(t.db, "cli-shopper@example.com"))).toBe(false);
  });

  it("refuses intents:refund for an account that is not a partner, saying how to make it one", () => {
    const result = cli("create", "--name", "x", "--owner", "cli-shopper@example.com", "--scopes", "intents:read,intents:refund");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("token: cli-shopper@example.com is not a partner");
    expect(result.stderr).toContain("--partner");
    expect(result.stderr).toContain("/admin/partners");
    expect(result.stdout).toBe("");
  });

  it("--partner makes the owner a partner, in the audit log as cli, then the token may refund", async () => {
    const created = cli("create", "--name", "acme", "--owner", "cli-partner@example.com", "--partner");
    expect(created.status).toBe(0);
    const auth = await authenticateToken(t.db, lastLine(created.stdout));
    expect(auth).toMatchObject({ ok: true, token: { scopes: expect.arrayContaining(["intents:refund"]) } });
    expect(await isPartner(t.db, await ensureUser(t.db, "cli-partner@example.com"))).toBe(true);
    expect(await auditOf("cli-partner@example.com")).toEqual([{ action: "partner.add", actor: "cli" }]);
    // Once is enough: a second --partner changes nothing and records nothing.
    expect(cli("create", "--name", "acme 2", "--owner", "cli-partner@example.com", "--partner").status).toBe(0);
    expect(await auditOf("cli-partner@example.com")).toHaveLength(1);
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

  it("reads a file of junk lines in bounded memory and prints the first problems and the counts, not a line per problem", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-junk-"));
    const file = path.join(dir, "junk.jsonl");
    const game = JSON.stringify({ "4400001": { success: true, data: { type: "game", name: "CLI Junk Survivor", steam_appid: 4400001 } } });
    fs.writeFileSync(file, `${"x\n".repeat(2_621_440)}${game}\n`);
    try {
      // The V8 heap a server process gets: the file's lines must never all be in memory at once.
      const result = run("catalog-import.ts", [file], t.url, { NODE_OPTIONS: "--max-old-space-size=256" });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      const lines = result.stdout.trim().split("\n");
      expect(lines[0]).toBe("Imported 1 new games, updated 0, skipped 2621440.");
      expect(lines.slice(1, 21)).toEqual(Array.from({ length: 20 }, (_, i) => `  skipped line ${i + 1}: The line is not JSON.`));
      expect(lines[21]).toBe("  ... 2621420 more skipped not listed; all 2621440 by reason: not JSON 2621440");
      expect(lines.length).toBeLessThan(30);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
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

describe("rates:set, rates:import, rates:list and catalog:import --rates", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-rates-"));
  const file = (name: string, text: string) => {
    const at = path.join(dir, name);
    fs.writeFileSync(at, text);
    return at;
  };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const rates = (...args: string[]) => run("rates.ts", args);
  const today = new Date().toISOString().slice(0, 10);
  /** Whether Red Dead Redemption 2 (1174180, in the sample) can be gifted to Turkey now. */
  const giftableToTurkey = async () =>
    (await t.pool.query("SELECT 1 FROM giftable_games WHERE app_id = 1174180 AND region = 'TR'")).rowCount === 1;
  const storedRates = async () =>
    (await t.pool.query("SELECT currency, as_of::text, rub_micros_per_unit::text FROM currency_rates ORDER BY 1, 2")).rows;

  /** The sample as the store answers with cc=tr: prices in lira at 2.5 roubles each, so within the gap at that rate. */
  function turkishFile(): string {
    const sample = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/appdetails-sample.json"), "utf8")) as Record<
      string,
      { data?: any }
    >;
    for (const entry of Object.values(sample)) {
      const price = entry.data?.price_overview;
      if (price) Object.assign(price, { currency: "TRY", initial: Math.round(price.initial / 2.5), final: Math.round(price.final / 2.5) });
      for (const group of entry.data?.package_groups ?? [])
        for (const sub of group.subs)
          if (typeof sub.price_in_cents_with_discount === "number")
            sub.price_in_cents_with_discount = Math.round(sub.price_in_cents_with_discount / 2.5);
    }
    return file("tr.json", JSON.stringify(sample));
  }

  it("an import priced in a currency without a rate says so, and nothing can be gifted there yet", async () => {
    const result = run("catalog-import.ts", ["tests/fixtures/appdetails-sample.json", `TR=${turkishFile()}`, "--regions", "RU,TR"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("warning: prices in TRY (TR) have no rate, so gifts there are refused: npm run rates:set -- TRY=RATE");
    expect(await giftableToTurkey()).toBe(false);
  });

  it("rates:set stores a dated rate and makes what it allows giftable at once", async () => {
    const result = rates("set", "TRY=2.5", "usd=81.7");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`Stored 2 rates: TRY 2.5 (${today}), USD 81.7 (${today}).`);
    const [, after, before] = /Giftable now: (\d+) game-region pairs \(were (\d+)\)/.exec(result.stdout) ?? [];
    expect(Number(after)).toBeGreaterThan(Number(before));
    expect(result.stdout).not.toContain("warning");
    expect(await giftableToTurkey()).toBe(true);
    expect(await storedRates()).toContainEqual({ currency: "TRY", as_of: today, rub_micros_per_unit: "2500000" });

    const listed = rates("list");
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`TRY\\s+2\\.5\\s+${today}\\s+TR\\n`));
    expect(listed.stdout).toMatch(/KZT\s+0\.162\s+2026-11-01\s+\S*KZ/);
  });

  it("refuses a rate far from the one in force unless forced, as a misplaced dot would be", async () => {
    const before = await storedRates();
    const refused = rates("set", "TRY=25", "--date", "2026-11-20");
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      "rates:set: TRY 2.5 -> 25: more than 2 times away from the rate in force; check the dot, or pass --force",
    );
    expect(await storedRates()).toEqual(before);

    // An older day's rate does not displace the latest one.
    const older = rates("import", file("older.csv", "currency,date,rate\nTRY,2026-11-20,25\n"), "--force");
    expect(older.status).toBe(0);
    expect(await giftableToTurkey()).toBe(true);

    const forced = rates("set", "TRY=25", "--force");
    expect(forced.status).toBe(0);
    expect(await giftableToTurkey()).toBe(false); // ten times the roubles: far beyond the gap
  });

  it("rates:import reads a file; catalog:import --rates stores its rates with the games", async () => {
    const csv = file("rates.csv", `# lira back to normal\ncurrency,date,rate\nTRY,${today},2.5\n`);
    const imported = rates("import", csv, "--force");
    expect(imported.stderr).toBe("");
    expect(imported.stdout).toContain(`Stored 1 rate: TRY 2.5 (${today}).`);
    expect(await giftableToTurkey()).toBe(true);

    const json = file("rates.json", JSON.stringify([{ currency: "GEL", date: "2026-11-01", rate: "29.9" }]));
    const result = run("catalog-import.ts", ["tests/fixtures/appdetails-sample.json", "--rates", json]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Stored 1 currency rate from ${json}\\.\\nImported 0 new games, updated \\d+`));
    expect(await storedRates()).toContainEqual({ currency: "GEL", as_of: "2026-11-01", rub_micros_per_unit: "29900000" });
  });

  it.each([
    ["rates.ts", ["set"], "rates:set: give at least one rate as CUR=RATE, such as USD=81.5 (roubles per unit)"],
    ["rates.ts", ["set", "USD"], 'rates:set: "USD": write each rate as CUR=RATE'],
    [
      "rates.ts",
      ["set", "USD=81,5"],
      'rates:set: "USD=81,5": the rate must be roubles per unit, above 0 and at most 1000000, with a dot and at most 6 decimals, such as 81.5 (got "81,5")',
    ],
    ["rates.ts", ["set", "USD=0"], 'rates:set: "USD=0": the rate must be roubles per unit'],
    ["rates.ts", ["set", "RUB=1"], 'rates:set: "RUB=1": RUB is the store\'s own currency; its rate is always 1'],
    ["rates.ts", ["set", "US=81.5"], 'rates:set: "US=81.5": the currency must be a three-letter code such as USD (got "US")'],
    ["rates.ts", ["set", "USD=81.5", "USD=82"], "rates:set: USD is given twice"],
    [
      "rates.ts",
      ["set", "USD=81.5", "--date", "2026-02-30"],
      'rates:set: --date: the date must be a day written YYYY-MM-DD, such as 2026-11-01 (got "2026-02-30")',
    ],
    ["rates.ts", ["set", "USD=81.5", "--date", "2999-01-01"], "rates:set: --date: 2999-01-01 is in the future"],
    ["rates.ts", ["import"], "rates:import: rates:import takes one FILE"],
    ["rates.ts", ["import", "no-such-rates.csv"], "rates:import: cannot read no-such-rates.csv: ENOENT"],
    ["rates.ts", ["import", "tests/fixtures/appdetails-sample.json", "--date", "2026-11-01"], "rates:import: --date goes with rates:set"],
    [
      "rates.ts",
      ["import", "tests/fixtures/appdetails-sample.json"],
      'rates:import: tests/fixtures/appdetails-sample.json: expected an array of {"currency", "date", "rate"}',
    ],
    ["rates.ts", ["list", "USD"], "rates:list: rates:list takes no arguments"],
    ["rates.ts", ["fly"], 'rates: unknown command "fly"'],
    [
      "catalog-import.ts",
      ["tests/fixtures/appdetails-sample.json", "--rates", "no-such-rates.csv"],
      "catalog:import: cannot read no-such-rates.csv: ENOENT",
    ],
  ])("%s %j exits 2 and stores nothing", async (script, args, message) => {
    const before = await storedRates();
    const result = run(script, args);
    expect(result.stderr).toContain(message);
    expect(result.status).toBe(2);
    expect(await storedRates()).toEqual(before);
  });

  it("refuses a bad line of a file by its number, before storing any", async () => {
    const before = await storedRates();
    const csv = file("bad.csv", "currency,date,rate\nEUR,2026-11-02,95\nUSD,2026-11-02,82.1.5\n");
    for (const [script, args, prefix] of [
      ["rates.ts", ["import", csv], "rates:import"],
      ["catalog-import.ts", ["tests/fixtures/appdetails-sample.json", "--rates", csv], "catalog:import"],
    ] as const) {
      const result = run(script, [...args]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`${prefix}: ${csv} line 3: the rate must be roubles per unit`);
    }
    expect(await storedRates()).toEqual(before);
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
