import { describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { DEFAULT_LEASE_OPTIONS, LeasedRateLimiter, grantOf, leaseBlock, type LeaseOptions } from "./rate-limit-leases";
import type { RateLimitPolicy } from "./rate-limits";

const sizing = { maxBlock: 100, divisor: 32 };
const block = (limit: number, seen: number, waiting = 1) => leaseBlock({ limit, seen, waiting }, sizing);

describe("leaseBlock", () => {
  it("takes the largest block far from the limit", () => {
    expect(block(1_000_000, 0)).toBe(100);
    expect(block(1_000_000, 999_000)).toBe(31);
  });

  it("takes 1/divisor of what is left, down to one unit at a time near the limit", () => {
    expect(block(600, 0)).toBe(18);
    expect(block(600, 300)).toBe(9);
    expect(block(600, 537)).toBe(1);
    expect(block(600, 599)).toBe(1);
    // Small limits are counted one request at a time, as the exact path does.
    expect(block(5, 0)).toBe(1);
  });

  it("takes enough for the requests already waiting, never more than maxBlock nor what is left", () => {
    expect(block(600, 590, 4)).toBe(4);
    expect(block(600, 590, 50)).toBe(10);
    expect(block(1_000_000, 0, 500)).toBe(100);
  });

  it("asks for one unit when the row looks used up (the claim then finds out)", () => {
    expect(block(600, 600)).toBe(1);
    expect(block(600, 700, 5)).toBe(1);
  });

  it("never holds more than min(maxBlock, floor(limit / divisor)) beyond the waiting requests", () => {
    for (const limit of [1, 5, 31, 32, 600, 3_200, 10_000, 1_000_000]) {
      const bound = Math.min(sizing.maxBlock, Math.floor(limit / sizing.divisor));
      for (let seen = 0; seen <= limit; seen += Math.max(1, Math.floor(limit / 97))) {
        for (const waiting of [1, 3, 40, 500]) {
          const want = block(limit, seen, waiting);
          expect(want).toBeGreaterThanOrEqual(1);
          expect(want).toBeLessThanOrEqual(sizing.maxBlock);
          expect(Math.max(0, want - waiting)).toBeLessThanOrEqual(bound);
        }
      }
    }
  });
});

describe("grantOf", () => {
  it("keeps the part of the claimed interval at or below the limit", () => {
    expect(grantOf(600, 18, 18)).toBe(18);
    expect(grantOf(600, 610, 18)).toBe(8);
    expect(grantOf(600, 600, 18)).toBe(18);
    expect(grantOf(600, 618, 18)).toBe(0);
    expect(grantOf(600, 900, 1)).toBe(0);
    expect(grantOf(600, 300, 0)).toBe(0);
  });
});

/**
 * A row in memory standing in for `rate_limits`: claims apply one at a time, as the row lock
 * makes them, after a random delay, so several limiters' claims interleave in any order.
 */
class SharedRow {
  count = 0;
  windowStart = 0;
  statements = 0;
  constructor(
    private readonly clock: { t: number },
    private readonly windowMs: number,
  ) {}
  async apply(want: number) {
    await new Promise((r) => setTimeout(r, Math.random() * 2));
    this.statements++;
    const start = Math.floor(this.clock.t / this.windowMs) * this.windowMs;
    if (start !== this.windowStart) [this.windowStart, this.count] = [start, 0];
    this.count += want;
    return { count: this.count, resetMs: start + this.windowMs - this.clock.t, windowStart: start / 1000 };
  }
}

class InMemoryLimiter extends LeasedRateLimiter {
  failing = false;
  constructor(
    private readonly row: SharedRow,
    options: Partial<LeaseOptions>,
  ) {
    super(options);
  }
  protected override claim(_db: Database, _key: string, _policy: RateLimitPolicy, want: number) {
    return this.failing ? Promise.reject(new Error("connection lost")) : this.row.apply(want);
  }
}

const db = {} as Database;
const policy = (limit: number): RateLimitPolicy => ({ name: "token", limit, windowSeconds: 60 });

function setup(processes: number, options: Partial<LeaseOptions> = {}) {
  const clock = { t: 1_000 };
  const row = new SharedRow(clock, 60_000);
  const limiters = Array.from({ length: processes }, () => new InMemoryLimiter(row, { ...options, now: () => clock.t }));
  return { clock, row, limiters };
}

describe("LeasedRateLimiter", () => {
  it.each([
    [1, 600],
    [2, 600],
    [3, 600],
    [2, 5_000],
    [4, 40],
  ])("with %i processes and limit %i, admits at most the limit and refuses only past limit − (P − 1) × H", async (processes, limit) => {
    const { row, limiters } = setup(processes);
    const bound = Math.min(DEFAULT_LEASE_OPTIONS.maxBlock, Math.floor(limit / DEFAULT_LEASE_OPTIONS.divisor));
    let admitted = 0;
    let admittedAtFirstRefusal: number | null = null;
    await Promise.all(
      limiters.map(async (limiter) => {
        // Bursts of concurrent requests until this process is refused.
        for (;;) {
          const results = await Promise.all(
            Array.from({ length: 7 }, async () => {
              const r = await limiter.hit(db, "token:t", policy(limit));
              if (r.allowed) admitted++;
              else admittedAtFirstRefusal ??= admitted;
              return r;
            }),
          );
          if (results.some((r) => !r.allowed)) return;
        }
      }),
    );
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admittedAtFirstRefusal).not.toBeNull();
    expect(admittedAtFirstRefusal!).toBeGreaterThanOrEqual(limit - (processes - 1) * bound);
    expect(row.count).toBeGreaterThanOrEqual(limit);
  });

  it.each([
    [2, 600],
    [3, 600],
    [2, 20_000],
  ])("with %i processes and limit %i, the others holding their blocks idle cost at most (P − 1) × H", async (processes, limit) => {
    const { limiters } = setup(processes);
    const [busy, ...idle] = limiters as [InMemoryLimiter, ...InMemoryLimiter[]];
    const bound = Math.min(DEFAULT_LEASE_OPTIONS.maxBlock, Math.floor(limit / DEFAULT_LEASE_OPTIONS.divisor));
    // Each idle process admits one request and keeps the rest of its block.
    for (const limiter of idle) expect((await limiter.hit(db, "token:t", policy(limit))).allowed).toBe(true);
    let admitted = idle.length;
    for (;;) {
      const results = await Promise.all(Array.from({ length: 50 }, () => busy.hit(db, "token:t", policy(limit))));
      admitted += results.filter((r) => r.allowed).length;
      if (results.some((r) => !r.allowed)) break;
    }
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - (processes - 1) * bound);
  });

  it("sends one statement per block, not per request, far from the limit", async () => {
    const { row, limiters } = setup(1);
    for (let i = 0; i < 1_000; i++) expect((await limiters[0]!.hit(db, "token:t", policy(1_000_000))).allowed).toBe(true);
    expect(row.statements).toBe(10);
  });

  it("serves a burst with as many claims as it needs blocks", async () => {
    const { row, limiters } = setup(1);
    const results = await Promise.all(Array.from({ length: 50 }, () => limiters[0]!.hit(db, "token:t", policy(40))));
    expect(results.filter((r) => r.allowed)).toHaveLength(40);
    // Every admitted request is told a different remaining, 39 down to 0, as with the exact counter.
    expect(
      results
        .filter((r) => r.allowed)
        .map((r) => r.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(row.statements).toBeLessThanOrEqual(3);
  });

  it("refuses from memory once the window is used up, and claims again in the next window", async () => {
    const { clock, row, limiters } = setup(1);
    const limiter = limiters[0]!;
    for (let i = 0; i < 3; i++) expect((await limiter.hit(db, "token:t", policy(3))).remaining).toBe(2 - i);
    const before = row.statements;
    for (let i = 0; i < 100; i++) expect(await limiter.hit(db, "token:t", policy(3))).toMatchObject({ allowed: false, remaining: 0 });
    // The third claim saw the row reach the limit: no statement for any refusal after it.
    expect(row.statements).toBe(before);
    clock.t = 60_000;
    expect(await limiter.hit(db, "token:t", policy(3))).toMatchObject({ allowed: true, remaining: 2 });
  });

  it("refreshes a view older than maxAgeMs before answering, so the headers follow the other processes", async () => {
    const { clock, row, limiters } = setup(2);
    const [a, b] = limiters as [InMemoryLimiter, InMemoryLimiter];
    expect(await a.hit(db, "token:t", policy(3_200))).toMatchObject({ allowed: true, remaining: 3_199 });
    for (let i = 0; i < 1_000; i++) await b.hit(db, "token:t", policy(3_200));
    // Within maxAgeMs, a answers from what it saw: the other process's 1,000 are not in it yet.
    expect((await a.hit(db, "token:t", policy(3_200))).remaining).toBe(3_198);
    clock.t += DEFAULT_LEASE_OPTIONS.maxAgeMs + 1;
    const fresh = await a.hit(db, "token:t", policy(3_200));
    // What nobody has claimed plus what a holds: never above the truth, 3,200 − 1,003 admitted.
    expect(fresh.remaining).toBe(3_200 - row.count + 97);
    expect(fresh.remaining).toBeLessThanOrEqual(3_200 - 1_003);
  });

  it("keeps at most maxKeys leases: past it the oldest go, and a key that went claims afresh", async () => {
    const { row, limiters } = setup(1, { maxKeys: 10 });
    const limiter = limiters[0]!;
    for (let i = 0; i < 10; i++) await limiter.hit(db, `ip:${i}`, policy(3_200));
    const before = row.statements;
    await limiter.hit(db, "ip:9", policy(3_200));
    expect(row.statements).toBe(before);
    await limiter.hit(db, "ip:new", policy(3_200));
    await limiter.hit(db, "ip:0", policy(3_200));
    expect(row.statements).toBe(before + 2);
  });

  it("gives every waiting request the error when the claim fails, and claims afresh after", async () => {
    const limiter = setup(1).limiters[0]!;
    limiter.failing = true;
    const results = await Promise.allSettled(Array.from({ length: 3 }, () => limiter.hit(db, "token:t", policy(100))));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    limiter.failing = false;
    expect(await limiter.hit(db, "token:t", policy(100))).toMatchObject({ allowed: true, remaining: 99 });
  });
});
