import { sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb, createPool, type Database } from "@/lib/db/client";
import { DEFAULT_LEASE_OPTIONS, LeasedRateLimiter } from "@/lib/services/rate-limit-leases";
import { hitRateLimit, type RateLimitPolicy, type RateLimitResult } from "@/lib/services/rate-limits";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

// Two "instances": two limiters, each with its own pool to one database, as two server processes have.
let t: TestDatabase;
const instances: { limiter: LeasedRateLimiter; db: Database; pool: pg.Pool; queries: number }[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  for (let i = 0; i < 2; i++) {
    const pool = createPool(t.url, 4);
    const instance = { limiter: new LeasedRateLimiter(), db: createDb(pool), pool, queries: 0 };
    // Every statement the instance sends, whatever sends it: the pool's query is all drizzle calls.
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.query = ((...args: unknown[]) => (instance.queries++, query(...args))) as typeof pool.query;
    instances.push(instance);
  }
});

afterAll(async () => {
  for (const i of instances) await i.pool.end();
  await t?.close();
});

const WINDOW = 3600;
const policy = (limit: number): RateLimitPolicy => ({ name: "token", limit, windowSeconds: WINDOW });
/** What one process may hold of a key beyond its waiting requests (rate-limit-leases.ts). */
const held = (limit: number) => Math.min(DEFAULT_LEASE_OPTIONS.maxBlock, Math.floor(limit / DEFAULT_LEASE_OPTIONS.divisor));

// A test counts within one window: wait out the last seconds of one on the database's clock.
beforeEach(async () => {
  const { rows } = await t.db.execute<{ left: number }>(
    sql`SELECT (${WINDOW} - extract(epoch FROM clock_timestamp())::bigint % ${WINDOW})::int AS left`,
  );
  if (rows[0]!.left < 30) await new Promise((r) => setTimeout(r, (rows[0]!.left + 1) * 1000));
}, 40_000);

/** `total` requests from one instance, `concurrency` in flight at a time. */
async function hammer(
  instance: (typeof instances)[number],
  key: string,
  p: RateLimitPolicy,
  total: number,
  concurrency: number,
): Promise<RateLimitResult[]> {
  const results: RateLimitResult[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) results.push(await instance.limiter.hit(instance.db, key, p));
    }),
  );
  return results;
}

const rowCount = async (key: string) =>
  Number(
    (await t.db.execute<{ count: number }>(sql`SELECT coalesce(sum(count), 0) AS count FROM rate_limits WHERE key = ${key}`)).rows[0]!
      .count,
  );

describe("quota leases in PostgreSQL, two instances on one row", () => {
  it.each([600, 2_000, 10_000])(
    "with limit %i, 2 × 1.5 × limit concurrent requests admit at most the limit, and at least limit − H",
    async (limit) => {
      const key = `token:leases-${limit}`;
      const perInstance = Math.ceil(1.5 * limit);
      const [a, b] = await Promise.all(instances.map((i) => hammer(i, key, policy(limit), perInstance, 32)));
      const admitted = [...a!, ...b!].filter((r) => r.allowed).length;
      // The documented bounds: overshoot 0; under-admission at most (instances − 1) × H.
      expect(admitted).toBeLessThanOrEqual(limit);
      expect(admitted).toBeGreaterThanOrEqual(limit - held(limit));
      // Both took part, and the row holds every unit either admitted.
      expect(a!.filter((r) => r.allowed).length).toBeGreaterThan(0);
      expect(b!.filter((r) => r.allowed).length).toBeGreaterThan(0);
      expect(await rowCount(key)).toBeGreaterThanOrEqual(admitted);
      // A refusal says so, and no admitted request is told more is left than the limit allows.
      expect([...a!, ...b!].every((r) => (r.allowed ? r.remaining < limit : r.remaining === 0))).toBe(true);
    },
  );

  it("refuses only past limit − H while the other instance sits on its block", async () => {
    const key = "token:leases-idle";
    const limit = 3_000;
    // b takes one request's block and then no more requests: its unspent units lapse.
    expect((await instances[1]!.limiter.hit(instances[1]!.db, key, policy(limit))).allowed).toBe(true);
    const a = await hammer(instances[0]!, key, policy(limit), 2 * limit, 32);
    const admitted = a.filter((r) => r.allowed).length + 1;
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - held(limit));
  });

  it("admits at most the limit with the exact path counting on the same row at once", async () => {
    const key = "ip:leases-mixed";
    const limit = 500;
    const [a, b, exact] = await Promise.all([
      hammer(instances[0]!, key, policy(limit), 400, 16),
      hammer(instances[1]!, key, policy(limit), 400, 16),
      Promise.all(Array.from({ length: 100 }, () => hitRateLimit(t.db, key, policy(limit)))),
    ]);
    const admitted = [...a, ...b, ...exact].filter((r) => r.allowed).length;
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - held(limit));
  });

  it("sends far fewer statements than requests: one per block", async () => {
    const key = "token:leases-statements";
    const before = instances.map((i) => i.queries);
    const requests = 4_000;
    const results = await Promise.all(instances.map((i) => hammer(i, key, policy(1_000_000), requests / 2, 32)));
    expect(results.flat().every((r) => r.allowed)).toBe(true);
    const statements = instances.reduce((sum, i, n) => sum + i.queries - before[n]!, 0);
    // A block is 100 requests far from the limit; bursts and the 1 s refresh add a few claims.
    expect(statements).toBeLessThanOrEqual(requests / 50);
    expect(statements).toBeGreaterThanOrEqual(requests / DEFAULT_LEASE_OPTIONS.maxBlock);
    // The row counts what was claimed: every admitted request, and at most a block per instance more.
    const count = await rowCount(key);
    expect(count).toBeGreaterThanOrEqual(requests);
    expect(count).toBeLessThanOrEqual(requests + 2 * DEFAULT_LEASE_OPTIONS.maxBlock);
  });

  it("aligns its windows on the database's clock, as the exact path does", async () => {
    const key = "token:leases-aligned";
    await instances[0]!.limiter.hit(instances[0]!.db, key, policy(100));
    const { rows } = await t.db.execute<{ start: number; expires: number }>(
      sql`SELECT extract(epoch FROM window_start)::float8 AS start, extract(epoch FROM expires_at)::float8 AS expires
          FROM rate_limits WHERE key = ${key}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.start % WINDOW).toBe(0);
    expect(rows[0]!.expires - rows[0]!.start).toBe(WINDOW);
    const exact = await hitRateLimit(t.db, key, policy(100));
    // The exact path counted in the same row, after the lease's block of 3 (100 / 32).
    expect(exact.remaining).toBe(100 - 3 - 1);
  });
});
