// Runs once when a Next.js server starts: the background worker (callbacks, and the expiry sweep)
// lives in the server process, one per instance.
export async function register() {
  // NEXT_RUNTIME is set by Next itself (not configuration); the worker needs Node, not the edge runtime.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkStartupConfiguration } = await import("@/lib/startup");
  checkStartupConfiguration();
  const { startBackgroundWorker } = await import("@/lib/worker");
  startBackgroundWorker();
}
