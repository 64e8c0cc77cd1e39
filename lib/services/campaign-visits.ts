import "server-only";
import { sql } from "drizzle-orm";
import { bufferVisit, takeBufferedVisits, visitBuffer, type CampaignKey, type VisitBuffer } from "@/lib/campaigns/visits";
import type { DbExecutor } from "@/lib/db/client";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

/** How often a server process writes the visits its pages counted. A crash loses at most this much. */
export const VISIT_FLUSH_INTERVAL_MS = 5_000;

/**
 * Adds visits to their campaigns' daily counts. A day keeps at most `perDay` campaigns apart
 * (CAMPAIGNS_PER_DAY): a campaign the day already has adds to its row; new ones take the free places,
 * most visited first; the visits of the rest go to the day's one row of other campaigns
 * (OTHER_CAMPAIGNS), so a flood of made-up names adds one row a day, not one per name.
 *
 * Every server process flushes its own counts. Each day's lock is taken first (in day order, so two
 * flushes never deadlock), and the statement that judges the free places runs after it, with a
 * snapshot that sees every flush committed before: processes together never keep more than `perDay`.
 * (A lock taken inside the judging statement would not do: its snapshot is older than the lock.)
 */
export async function recordCampaignVisits(
  db: DbExecutor,
  visits: readonly { key: CampaignKey; visits: number }[],
  { perDay = env.CAMPAIGNS_PER_DAY }: { perDay?: number } = {},
): Promise<void> {
  if (visits.length === 0) return;
  const rows = visits
    .map(({ key, visits }) => ({ ...key, visits }))
    .sort((a, b) => cmp(a.day, b.day) || cmp(a.source, b.source) || cmp(a.medium, b.medium) || cmp(a.campaign, b.campaign));
  const days = [...new Set(rows.map((r) => r.day))];
  const input = sql.join(
    rows.map((r) => sql`(${r.day}::date, ${r.source}::text, ${r.medium}::text, ${r.campaign}::text, ${r.visits}::int)`),
    sql`, `,
  );
  await db.transaction(async (tx) => {
    for (const day of days) await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`campaign_visits:${day}`}, 0))`);
    await tx.execute(sql`
      WITH input (day, source, medium, campaign, visits) AS (VALUES ${input}),
      kept AS (
        SELECT day, count(*) AS campaigns FROM campaign_visits
        WHERE day IN (SELECT day FROM input) AND (source, medium, campaign) <> ('', '', '')
        GROUP BY day
      ),
      judged AS (
        SELECT i.*, c.day IS NOT NULL AS known
        FROM input i LEFT JOIN campaign_visits c USING (day, source, medium, campaign)
      ),
      placed AS (
        SELECT day, source, medium, campaign, visits,
               known OR row_number() OVER (PARTITION BY day, known ORDER BY visits DESC, source, medium, campaign)
                         <= ${perDay} - coalesce(campaigns, 0) AS own
        FROM judged LEFT JOIN kept USING (day)
      )
      INSERT INTO campaign_visits AS c (day, source, medium, campaign, visits)
      SELECT day, CASE WHEN own THEN source ELSE '' END, CASE WHEN own THEN medium ELSE '' END,
             CASE WHEN own THEN campaign ELSE '' END, sum(visits)
      FROM placed
      GROUP BY 1, 2, 3, 4
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, source, medium, campaign) DO UPDATE SET visits = c.visits + excluded.visits`);
  });
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Writes what this process has counted since the last flush. On failure the counts go back into the
 * buffer for the next attempt (unless it has filled up meanwhile), and the error is logged: a page
 * never sees it.
 */
export async function flushCampaignVisits(db: DbExecutor, buffer: VisitBuffer = visitBuffer()): Promise<void> {
  const taken = takeBufferedVisits(buffer);
  if (buffer.dropped > 0) {
    log.warn({ area: "campaigns", dropped: buffer.dropped }, "campaign visits dropped: the buffer was full");
    buffer.dropped = 0;
  }
  try {
    await recordCampaignVisits(db, taken);
  } catch (err) {
    for (const { key, visits } of taken) bufferVisit(key, visits, buffer);
    log.error({ area: "campaigns", err, campaigns: taken.length }, "could not record campaign visits; will retry");
  }
}

const holder = globalThis as unknown as { gkVisitFlusher?: NodeJS.Timeout };

/**
 * One timer per server process (instrumentation.ts starts it); it never keeps the process alive and
 * opens the database only once there is something to write.
 */
export function startCampaignVisitFlusher(db: () => DbExecutor): void {
  if (holder.gkVisitFlusher) return;
  let running = false;
  holder.gkVisitFlusher = setInterval(() => {
    if (running || visitBuffer().counts.size === 0) return;
    running = true;
    void Promise.resolve()
      .then(() => flushCampaignVisits(db()))
      .catch((err: unknown) => log.error({ area: "campaigns", err }, "could not record campaign visits"))
      .finally(() => (running = false));
  }, VISIT_FLUSH_INTERVAL_MS);
  holder.gkVisitFlusher.unref();
}
