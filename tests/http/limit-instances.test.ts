import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startNextProcess, stopChild, type NextProcess } from "@/scripts/lib/processes";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerToken } from "@/tests/support/partners";

// Two real server processes on one database, one token's requests spread over both: the per-token
// limit holds across them with the bounds the README states (quota leases, rate-limit-leases.ts).
const LIMIT = 200;
/** What one process may hold beyond its waiting requests: min(100, floor(LIMIT / 32)). */
const HELD = Math.min(100, Math.floor(LIMIT / 32));
let t: TestDatabase;
let servers: NextProcess[] = [];
let token = "";

// Windows are fixed and aligned to the clock (60 s): the burst must not straddle a window's end.
beforeEach(async () => {
  const intoWindow = (Date.now() / 1000) % 60;
  if (intoWindow > 45) await new Promise((r) => setTimeout(r, (61 - intoWindow) * 1000));
}, 20_000);

beforeAll(async () => {
  t = await createTestDatabase();
  token = (await partnerToken(t.db, "two-limits@example.com", { name: "two" })).token;
  const env = { DATABASE_URL: t.url, WORKER_ENABLED: "0", TRUST_PROXY: "1", RATE_LIMIT_PER_TOKEN: String(LIMIT) };
  servers = await Promise.all([startNextProcess("limit-instances-a", env), startNextProcess("limit-instances-b", env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => stopChild(s.child)));
  await t?.close();
});

describe("one token's limit across two server processes", () => {
  it(`admits at most ${LIMIT} of 3 × ${LIMIT} concurrent requests, and at least ${LIMIT} − ${HELD}`, async () => {
    const answers: { status: number; ratelimit: string | null }[] = [];
    let next = 0;
    // 16 clients per server, each sending its requests one after another.
    await Promise.all(
      servers.flatMap((server) =>
        Array.from({ length: 16 }, async () => {
          while (next++ < 3 * LIMIT) {
            const res = await fetch(`${server.baseUrl}/api/v1/gifts/catalog?limit=1`, { headers: { authorization: `Bearer ${token}` } });
            await res.arrayBuffer();
            answers.push({ status: res.status, ratelimit: res.headers.get("ratelimit") });
          }
        }),
      ),
    );
    const admitted = answers.filter((a) => a.status === 200).length;
    expect(admitted).toBeLessThanOrEqual(LIMIT);
    expect(admitted).toBeGreaterThanOrEqual(LIMIT - HELD);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3 * LIMIT - admitted);
    expect(answers.filter((a) => a.status === 429).every((a) => /^"token";r=0;t=\d+$/.test(a.ratelimit ?? ""))).toBe(true);
    console.log(`two processes, limit ${LIMIT}: ${admitted} of ${3 * LIMIT} admitted`);
  });
});
