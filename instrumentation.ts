// Runs once when a Next.js server starts: the client-address forwarding the rate limits rely on, the
// 405 for methods Next does not route, the configuration check, and the background worker
// (callbacks, sweeps), one per instance.
export async function register() {
  // NEXT_RUNTIME is set by Next itself (not configuration); all of this needs Node, not the edge runtime.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddressForwarding } = await import("@/lib/http/peer-address");
  installPeerAddressForwarding();
  const { installMethodGuard } = await import("@/lib/http/method-guard");
  installMethodGuard();
  const { checkStartupConfiguration } = await import("@/lib/startup");
  checkStartupConfiguration();
  // In a cluster the primary asks every server process for its metrics at each scrape; Next loads a
  // route's modules at its first request, so the registry is set up here, before any request.
  await import("@/lib/metrics");
  const { startBackgroundWorker } = await import("@/lib/worker");
  startBackgroundWorker();
  // Every server process writes the campaign visits its own proxy counted.
  const [{ getDb }, { startCampaignVisitFlusher }] = await Promise.all([
    import("@/lib/db/client"),
    import("@/lib/services/campaign-visits"),
  ]);
  startCampaignVisitFlusher(getDb);
}
