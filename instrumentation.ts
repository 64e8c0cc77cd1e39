// Runs once when a Next.js server starts: the background worker (callbacks, and the expiry sweep)
// lives in the server process, one per instance.
export async function register() {
  // NEXT_RUNTIME is set by Next itself (not configuration); the worker needs Node, not the edge runtime.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Fail at start, not at a shopper's first sign-in: a production server needs its session secret.
  const { authSecret } = await import("@/lib/auth/secret");
  try {
    authSecret();
  } catch (err) {
    console.error(`Cannot start: ${(err as Error).message}`);
    process.exit(1);
  }
  const { startBackgroundWorker } = await import("@/lib/worker");
  startBackgroundWorker();
}
