import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startNextProcess, stopChild, type NextProcess } from "@/scripts/lib/processes";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerToken } from "@/tests/support/partners";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
import { expectErrorBody } from "./support";

// Limits under a burst: every attempt is counted before it is judged, so concurrent requests never
// get more judged than a limit allows. A server of its own, with a token quota the bursts cannot reach.
const PROMO_LIMIT = 20;
const TOKEN_LIMIT = 150;
let t: TestDatabase;
let server: NextProcess;
const tokens = { guesser: "", usedUp: "" };

// Windows are fixed and aligned to the clock: a burst must not straddle a window's end.
beforeEach(async () => {
  const intoWindow = (Date.now() / 1000) % 60;
  if (intoWindow > 40) await new Promise((r) => setTimeout(r, (61 - intoWindow) * 1000));
}, 30_000);

beforeAll(async () => {
  t = await createTestDatabase();
  const make = async (email: string) => (await partnerToken(t.db, email)).token;
  tokens.guesser = await make("burst-guesser@example.com");
  tokens.usedUp = await make("burst-used-up@example.com");
  server = await startNextProcess("limit-bursts", {
    DATABASE_URL: t.url,
    WORKER_ENABLED: "0",
    TRUST_PROXY: "1",
    RATE_LIMIT_PER_TOKEN: String(TOKEN_LIMIT),
    RATE_LIMIT_PROMO: String(PROMO_LIMIT),
    RATE_LIMIT_GUESTS_PER_IP: String(TOKEN_LIMIT),
  });
}, 120_000);

afterAll(async () => {
  if (server) await stopChild(server.child);
  await t?.close();
});

async function call(path: string, init: { token?: string; ip?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "x-forwarded-for": init.ip ?? "192.0.2.50", ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body: any = await res.json().catch(() => null);
  if (res.status >= 400) expectErrorBody(res.status, body);
  return { status: res.status, body, headers: res.headers };
}

const gift = (code: string) => ({
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "gamer@example.com",
  fee: "excluded",
  code,
});

describe("promo-code guesses under a burst", () => {
  it("judge at most the limit of 100 concurrent wrong codes; the rest, and then a right code, are 429", async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call("/api/v1/gifts/verify", { token: tokens.guesser, body: gift(`NOPE${i}`) })),
    );
    const judged = answers.filter((a) => a.status === 400);
    expect(judged.every((a) => a.body.reason === "promo_code_unknown")).toBe(true);
    expect(judged.length).toBeLessThanOrEqual(PROMO_LIMIT);
    expect(answers.filter((a) => a.status === 429).length).toBe(100 - judged.length);
    expect((await call("/api/v1/gifts/verify", { token: tokens.guesser, body: gift("WELCOME10") })).status).toBe(429);
  });

  // A request with a code holds a guess while it is judged, so at most the limit are in flight at
  // once; these come 10 at a time, each batch well within it.
  it("do not count a real code that is used up, nor a right one", async () => {
    // An address of its own: the burst above used up its address's guesses as well as its owner's.
    const ip = "192.0.2.51";
    const batches = async (count: number, code: string) => {
      const answers = [];
      for (let i = 0; i < count; i += 10) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, () => call("/api/v1/gifts/verify", { token: tokens.usedUp, ip, body: gift(code) })),
          )),
        );
      }
      return answers;
    };
    expect((await batches(30, "USEDUP")).map((a) => a.body.reason)).toEqual(Array(30).fill("promo_code_used_up"));
    expect((await batches(30, "WELCOME10")).map((a) => a.status)).toEqual(Array(30).fill(201));
    // Every guess is still there to spend.
    const wrong = await call("/api/v1/gifts/verify", { token: tokens.usedUp, ip, body: gift("STILLNOPE") });
    expect(wrong.body.reason).toBe("promo_code_unknown");
    expect(wrong.headers.get("ratelimit")).toMatch(new RegExp(`"promo";r=${PROMO_LIMIT - 1};`));
  });
});

describe("promo-code guesses of several owners at one address", () => {
  const burst = (token: string, ip: string, count: number, tag: string) =>
    Array.from({ length: count }, (_, i) => call("/api/v1/gifts/verify", { token, ip, body: gift(`${tag}${i}`) }));

  it("three new accounts from one address share its limit: together never more than it judged", async () => {
    const ip = "192.0.2.60";
    const accounts = await Promise.all(
      ["a", "b", "c"].map(
        async (n) =>
          (await createApiToken(t.db, { userId: await ensureUser(t.db, `free-${n}@example.com`), name: n, scopes: ["gifts:verify"] }))
            .token,
      ),
    );
    const answers = await Promise.all(accounts.flatMap((token, i) => burst(token, ip, 40, `NOPE${i}X`)));
    const judged = answers.filter((a) => a.status === 400);
    const refused = answers.filter((a) => a.status === 429);
    expect(judged.every((a) => a.body.reason === "promo_code_unknown")).toBe(true);
    expect(judged.length).toBeLessThanOrEqual(PROMO_LIMIT);
    expect(refused.length).toBe(120 - judged.length);
    for (const a of refused) {
      expect(a.body.reason).toBe("rate_limited");
      expect(Number(a.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    expect(refused.some((a) => /wrong promo codes from this address/.test(a.body.message))).toBe(true);
    // A fourth account at the address finds its budget spent; the same account elsewhere has its own.
    const fourth = (
      await createApiToken(t.db, { userId: await ensureUser(t.db, "free-d@example.com"), name: "d", scopes: ["gifts:verify"] })
    ).token;
    const late = await call("/api/v1/gifts/verify", { token: fourth, ip, body: gift("LATE") });
    expect(late.status).toBe(429);
    expect(late.body.message).toMatch(/^too many requests: at most 20 wrong promo codes from this address per 900 s; try again in \d+ s$/);
    expect((await call("/api/v1/gifts/verify", { token: fourth, ip: "192.0.2.61", body: gift("ELSEWHERE") })).body.reason).toBe(
      "promo_code_unknown",
    );
  });

  it("partners count per owner only: two partners' servers behind one address each keep their own limit", async () => {
    const ip = "192.0.2.80";
    const [first, second] = await Promise.all(
      ["burst-partner-1@example.com", "burst-partner-2@example.com"].map(async (email) => (await partnerToken(t.db, email)).token),
    );
    const answers = await Promise.all([...burst(first!, ip, 30, "PA"), ...burst(second!, ip, 30, "PB")]);
    const judged = answers.filter((a) => a.status === 400);
    // Each partner's own limit, not one shared address budget of 20.
    expect(judged.length).toBe(2 * PROMO_LIMIT);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.every((a) => /wrong promo codes for this token's owner/.test(a.body.message))).toBe(true);
    // A shopper's free account at the same address still has the whole address budget.
    const shopper = (
      await createApiToken(t.db, { userId: await ensureUser(t.db, "behind-partners@example.com"), name: "s", scopes: ["gifts:verify"] })
    ).token;
    expect((await call("/api/v1/gifts/verify", { token: shopper, ip, body: gift("SHOPPER") })).body.reason).toBe("promo_code_unknown");
  });

  it("one account from three addresses still has one owner's limit", async () => {
    const token = (
      await createApiToken(t.db, { userId: await ensureUser(t.db, "roaming@example.com"), name: "r", scopes: ["gifts:verify"] })
    ).token;
    const answers = await Promise.all(["192.0.2.70", "192.0.2.71", "192.0.2.72"].flatMap((ip, i) => burst(token, ip, 40, `ROAM${i}X`)));
    expect(answers.filter((a) => a.status === 400).length).toBeLessThanOrEqual(PROMO_LIMIT);
    expect(answers.filter((a) => a.status === 429).some((a) => /wrong promo codes for this token's owner/.test(a.body.message))).toBe(true);
  });
});

describe("guests' tokens from one address", () => {
  it("share one token's quota, however many tokens the address mints", async () => {
    const ip = "192.0.2.77";
    const mint = async () => {
      const res = await fetch(`${server.baseUrl}/api/storefront/token`, {
        method: "POST",
        headers: { "x-forwarded-for": ip, "sec-fetch-site": "same-origin" },
      });
      return ((await res.json()) as { token: string }).token;
    };
    const guests = [await mint(), await mint(), await mint()];
    const answers = await Promise.all(
      guests.flatMap((token) => Array.from({ length: 60 }, () => call("/api/v1/gifts/catalog?limit=1", { token, ip }))),
    );
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBe(TOKEN_LIMIT);
    expect(refused.length).toBe(180 - TOKEN_LIMIT);
    expect(refused[0]!.body.message).toMatch(/requests from guests at this address/);
  });
});
