import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clearRateLimit,
  hitRateLimit,
  hitRateLimits,
  peekRateLimit,
  purgeExpiredRateLimits,
  takeRateLimits,
  type RateLimitPolicy,
} from "@/lib/services/rate-limits";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.close());

const policy = (limit: number, windowSeconds = 60): RateLimitPolicy => ({ name: "token", limit, windowSeconds });
const rowsOf = async (key: string) =>
  (
    await t.db.execute<{ count: number; window_start: string }>(
      sql`SELECT count, window_start FROM rate_limits WHERE key = ${key} ORDER BY window_start`,
    )
  ).rows;

describe("a request counted against several counters at once", () => {
  const perEndpoint: RateLimitPolicy = { name: "webhook_sends_endpoint", limit: 10, windowSeconds: 60 };
  const perAccount: RateLimitPolicy = { name: "webhook_sends_account", limit: 30, windowSeconds: 3600 };
  const keys = (endpoint: number) => [
    { key: `multi:endpoint:${endpoint}`, policy: perEndpoint, what: "sends to this endpoint" },
    { key: "multi:account", policy: perAccount, what: "sends for this account" },
  ];

  it("admits a burst over five counters of one account at most each limit, and gives back what it refused", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        takeRateLimits(t.db, keys(i % 5)).then(
          () => ({ endpoint: i % 5, ok: true as const }),
          (err: { reason?: string; details?: { what: string } }) => ({ endpoint: i % 5, ok: false as const, err }),
        ),
      ),
    );
    const admitted = outcomes.filter((o) => o.ok);
    // Never past a limit; a request may be refused by a count another one gives back a moment later.
    expect(admitted.length).toBeLessThanOrEqual(30);
    expect(admitted.length).toBeGreaterThanOrEqual(10);
    for (let e = 0; e < 5; e++) expect(admitted.filter((o) => o.endpoint === e).length).toBeLessThanOrEqual(10);
    const refused = outcomes.filter((o) => !o.ok);
    expect(refused.every((o) => !o.ok && o.err.reason === "rate_limited")).toBe(true);
    // The account's hour frees up last, so a request over both limits is told of the account's.
    expect(refused.some((o) => !o.ok && o.err.details?.what === "sends for this account")).toBe(true);
    // Only what was admitted stays counted.
    expect((await rowsOf("multi:account")).map((r) => r.count)).toEqual([admitted.length]);
    let endpoints = 0;
    for (let e = 0; e < 5; e++) endpoints += (await rowsOf(`multi:endpoint:${e}`))[0]?.count ?? 0;
    expect(endpoints).toBe(admitted.length);
  });
});

describe("rate-limit counters in PostgreSQL", () => {
  it("counts 50 concurrent requests exactly: each count once, the ones past the limit refused", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => hitRateLimit(t.db, "token:concurrent", policy(40))));
    const remaining = results.map((r) => r.remaining).sort((a, b) => a - b);
    // Counts 1..50 each seen once: remaining 39..0 once each, then 0 for the ten over the limit.
    expect(remaining).toEqual([...Array(11).fill(0), ...Array.from({ length: 39 }, (_, i) => i + 1)]);
    expect(results.filter((r) => r.allowed)).toHaveLength(40);
    expect(results.every((r) => r.limit === 40 && r.windowSeconds === 60 && r.resetSeconds >= 0 && r.resetSeconds <= 60)).toBe(true);
    expect((await rowsOf("token:concurrent")).map((r) => r.count)).toEqual([50]);
  });

  it("starts a new window on the database's clock, aligned to the window length", async () => {
    // Start just after a 2 s boundary so both hits fall in one window, then wait into the next.
    const { rows } = await t.db.execute<{ ms: number }>(
      sql`SELECT (2000 - (extract(epoch FROM clock_timestamp()) * 1000)::bigint % 2000)::int AS ms`,
    );
    await new Promise((r) => setTimeout(r, rows[0]!.ms + 50));
    const first = await hitRateLimit(t.db, "token:rollover", policy(2, 2));
    const second = await hitRateLimit(t.db, "token:rollover", policy(2, 2));
    const third = await hitRateLimit(t.db, "token:rollover", policy(2, 2));
    expect([first.remaining, second.remaining, third.allowed]).toEqual([1, 0, false]);
    expect(third.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(third.resetSeconds).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, third.resetSeconds * 1000 + 100));
    const fresh = await hitRateLimit(t.db, "token:rollover", policy(2, 2));
    expect(fresh).toMatchObject({ allowed: true, remaining: 1 });
    const windows = await rowsOf("token:rollover");
    expect(windows.map((w) => w.count)).toEqual([3, 1]);
    expect(windows.every((w) => new Date(w.window_start).getTime() % 2000 === 0)).toBe(true);
  });

  it("peeks without counting", async () => {
    expect(await peekRateLimit(t.db, "promo:peek", policy(2))).toMatchObject({ allowed: true, remaining: 2 });
    await hitRateLimit(t.db, "promo:peek", policy(2));
    await hitRateLimit(t.db, "promo:peek", policy(2));
    expect(await peekRateLimit(t.db, "promo:peek", policy(2))).toMatchObject({ allowed: false, remaining: 0 });
    expect((await rowsOf("promo:peek")).map((r) => r.count)).toEqual([2]);
  });

  it("counts several keys in one statement, concurrently in either order without deadlock", async () => {
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        hitRateLimits(t.db, i % 2 ? ["signin:a", "signin-email:b"] : ["signin-email:b", "signin:a"], policy(100)),
      ),
    );
    expect((await rowsOf("signin:a")).map((r) => r.count)).toEqual([30]);
    expect((await rowsOf("signin-email:b")).map((r) => r.count)).toEqual([30]);
    await clearRateLimit(t.db, "signin-email:b");
    expect(await rowsOf("signin-email:b")).toEqual([]);
  });

  it("purges only windows that have ended", async () => {
    await t.db.execute(sql`INSERT INTO rate_limits (key, window_start, expires_at, count)
      VALUES ('ip:old', now() - interval '2 minutes', now() - interval '1 minute', 5)`);
    await hitRateLimit(t.db, "ip:current", policy(10));
    expect(await purgeExpiredRateLimits(t.db, { limit: 1000 })).toBeGreaterThanOrEqual(1);
    expect(await rowsOf("ip:old")).toEqual([]);
    expect((await rowsOf("ip:current")).map((r) => r.count)).toEqual([1]);
  });

  it("is an unlogged table: a counter bump writes no WAL", async () => {
    const { rows } = await t.db.execute<{ relpersistence: string }>(sql`SELECT relpersistence FROM pg_class WHERE relname = 'rate_limits'`);
    expect(rows[0]?.relpersistence).toBe("u");
  });
});
