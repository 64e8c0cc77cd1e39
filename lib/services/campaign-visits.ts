import "server-only";
import { sql } from "drizzle-orm";
import { bufferVisit, takeBufferedVisits, visitBuffer, type CampaignKey, type VisitBuffer } from "@/lib/campaigns/visits";
import type { DbExecutor } from "@/lib/db/client";
import { campaignVisits } from "@/lib/db/schema";
import { log } from "@/lib/log";

/** How often a server process writes the visits its proxy counted. A crash loses at most this much. */
export const VISIT_FLUSH_INTERVAL_MS = 5_000;

/** Adds visits to their campaigns' daily counts, in one statement. */
export async function recordCampaignVisits(db: DbExecutor, visits: readonly { key: CampaignKey; visits: number }[]): Promise<void> {
  if (visits.length === 0) return;
  // One order for every process, so two flushes touching the same rows wait on each other instead of deadlocking.
  const rows = visits
    .map(({ key, visits }) => ({ ...key, visits }))
    .sort((a, b) => cmp(a.day, b.day) || cmp(a.source, b.source) || cmp(a.medium, b.medium) || cmp(a.campaign, b.campaign));
  await db
    .insert(campaignVisits)
    .values(rows)
    .onConflictDoUpdate({
      target: [campaignVisits.day, campaignVisits.source, campaignVisits.medium, campaignVisits.campaign],
      set: { visits: sql`${campaignVisits.visits} + excluded.visits` },
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
