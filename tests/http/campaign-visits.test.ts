import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeDay } from "@/lib/campaigns/visits";
import { startNextProcess, stopChild, type NextProcess } from "@/scripts/lib/processes";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { until } from "@/tests/support/paid-intent";

// Campaign visits as the built server counts them (README, "The store in the browser"): a page
// load with utm_source or utm_medium adds one to its campaign's count for the day, written by the
// server process every 5 s. Only pages that exist count, and a day keeps at most CAMPAIGNS_PER_DAY
// campaigns apart: visits of any further campaign that day are counted together in one row.

const PER_DAY = 5;
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
let t: TestDatabase;
let server: NextProcess;

beforeAll(async () => {
  t = await createTestDatabase();
  server = await startNextProcess("campaign-visits", {
    DATABASE_URL: t.url,
    WORKER_ENABLED: "0",
    CAMPAIGNS_PER_DAY: String(PER_DAY),
    RATE_LIMIT_PER_IP: "1000000",
  });
}, 120_000);

afterAll(async () => {
  if (server) await stopChild(server.child);
  await t?.close();
});

async function load(path: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { "user-agent": CHROME, "sec-fetch-dest": "document", ...headers } });
  await res.arrayBuffer();
  return res.status;
}

/** Sends `paths` a few at a time, as browsers would. */
async function loadAll(paths: string[], concurrency = 8): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < paths.length; i += concurrency)
    statuses.push(...(await Promise.all(paths.slice(i, i + concurrency).map((p) => load(p)))));
  return statuses;
}

interface VisitRow {
  day: string;
  source: string;
  medium: string;
  campaign: string;
  visits: number;
}

async function rows(): Promise<VisitRow[]> {
  const { rows } = await t.pool.query<VisitRow>(
    "SELECT to_char(day, 'YYYY-MM-DD') AS day, source, medium, campaign, visits FROM campaign_visits ORDER BY day, source, medium, campaign",
  );
  return rows;
}

/** The server writes its visits every 5 s: wait until `visits` of them in all are in the table. */
async function flushedTotal(visits: number): Promise<VisitRow[]> {
  return until(
    async () => {
      const all = await rows();
      return all.reduce((sum, r) => sum + r.visits, 0) >= visits && all;
    },
    20_000,
    `${visits} visits written`,
  );
}

describe.sequential("campaign visits on the built server", () => {
  it("counts no load of a page that does not exist: 400 loads of 404 pages with unique campaigns write no row", async () => {
    const unknownIntent = crypto.randomUUID();
    const paths = Array.from(
      { length: 400 },
      (_, i) =>
        [
          `/games/99999999?utm_source=ghost-${i}`,
          `/no-such-page-${i}?utm_source=ghost-${i}`,
          `/pay/${unknownIntent}?utm_medium=ghost-${i}`,
        ][i % 3]!,
    );
    const statuses = await loadAll(paths);
    expect(new Set(statuses)).toEqual(new Set([404]));
    // A visit of a page that exists, after them: once it is written, everything before it was too.
    expect(await load("/games/620?utm_source=control")).toBe(200);
    // One flush writes the whole buffer: once the control is in, every load before it was counted.
    const written = await until(
      async () => {
        const all = await rows();
        return all.some((r) => r.source === "control") && all;
      },
      20_000,
      "the control visit written",
    );
    expect(written).toEqual([{ day: expect.any(String), source: "control", medium: "", campaign: "", visits: 1 }]);
  });

  it("keeps at most CAMPAIGNS_PER_DAY campaigns apart in a day, and counts every further one's visits together", async () => {
    // 1 campaign so far (control); 12 more, each visited twice, on pages that exist.
    const campaigns = Array.from({ length: 12 }, (_, i) => `utm_source=wide-${i}&utm_medium=cpc&utm_campaign=c${i}`);
    const statuses = await loadAll([...campaigns.map((q) => `/?${q}`), ...campaigns.map((q) => `/gear?${q}`)]);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const written = await flushedTotal(1 + 24);
    const today = written.filter((r) => r.day === storeDay(new Date()));
    // Day boundaries aside (a run across Moscow midnight splits the visits), one day's rows:
    for (const day of new Set(written.map((r) => r.day))) {
      expect(written.filter((r) => r.day === day).length, `rows of ${day}`).toBeLessThanOrEqual(PER_DAY + 1);
    }
    if (today.length === written.length) {
      expect(today).toHaveLength(PER_DAY + 1);
      expect(today.reduce((sum, r) => sum + r.visits, 0)).toBe(25);
      // The one row of the rest: no campaign has it (a visit always names a source or a medium).
      const other = today.filter((r) => r.source === "" && r.medium === "" && r.campaign === "");
      expect(other).toHaveLength(1);
      expect(other[0]!.visits).toBe(25 - (PER_DAY - 1) * 2 - 1);
    }
  });

  it("counts no prefetch of a page", async () => {
    const before = (await rows()).reduce((sum, r) => sum + r.visits, 0);
    for (const headers of [{ purpose: "prefetch" }, { "sec-purpose": "prefetch" }, { "next-router-prefetch": "1" }] as Record<
      string,
      string
    >[]) {
      expect(await load("/games/620?utm_source=prefetched", headers)).toBe(200);
    }
    expect(await load("/games/620?utm_source=control")).toBe(200);
    await flushedTotal(before + 1);
    expect((await rows()).filter((r) => r.source === "prefetched")).toEqual([]);
  });
});
