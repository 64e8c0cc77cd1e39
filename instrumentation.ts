// Runs once when a Next.js server starts: the client-address forwarding the rate limits rely on, the
// 405 for methods Next does not route, the mark on prefetches that proxy.ts reads, the 400 for paths
// that do not decode, the configuration check, the background worker (callbacks, sweeps), one per
// instance, and campaign visit counting.
export async function register() {
  // NEXT_RUNTIME is set by Next itself (not configuration); all of this needs Node, not the edge runtime.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddressForwarding } = await import("@/lib/http/peer-address");
  installPeerAddressForwarding();
  const { installMethodGuard } = await import("@/lib/http/method-guard");
  installMethodGuard();
  const { installPrefetchMark } = await import("@/lib/http/prefetch-mark");
  installPrefetchMark();
  // Wraps the hooks above, so a path that does not decode is answered before anything reads it.
  const { installPathGuard } = await import("@/lib/http/path-guard");
  installPathGuard();
  const { checkStartupConfiguration } = await import("@/lib/startup");
  checkStartupConfiguration();
  // In a cluster the primary asks every server process for its metrics at each scrape; Next loads a
  // route's modules at its first request, so the registry is set up here, before any request.
  await import("@/lib/metrics");
  const { startBackgroundWorker } = await import("@/lib/worker");
  startBackgroundWorker();
  // Every server process counts the campaign visits its pages answered, and writes them.
  const [{ getDb }, { startCampaignVisitFlusher }, { installCampaignVisitCounting }, { warnIfPrivilegedDatabaseRole }, { env }] =
    await Promise.all([
      import("@/lib/db/client"),
      import("@/lib/services/campaign-visits"),
      import("@/lib/campaigns/count-visits"),
      import("@/lib/startup"),
      import("@/lib/env"),
    ]);
  installCampaignVisitCounting();
  startCampaignVisitFlusher(getDb);
  if (env.DATABASE_URL) void warnIfPrivilegedDatabaseRole(getDb());
}
