// npm run serve [-- -H 127.0.0.1]: serve the production build on PORT with WEB_CONCURRENCY server
// processes against DATABASE_URL, nothing else (no build, migration or seed: that is `npm start`).
// The container image runs this file bundled beside the standalone build's server.js.
import { env } from "@/lib/env";
import { startServerCluster } from "./lib/server-cluster";

async function main(): Promise<number> {
  if (!env.DATABASE_URL) {
    console.error("Cannot serve: DATABASE_URL is not set (`npm start` provides a database of its own).");
    return 1;
  }
  if (!env.AUTH_SECRET) {
    // npm start generates one per machine; instances behind one proxy must share theirs.
    console.error("Cannot serve: AUTH_SECRET is not set; give every instance the same one (openssl rand -base64 48).");
    return 1;
  }
  let stopSignal: NodeJS.Signals | null = null;
  const early = (signal: NodeJS.Signals) => (stopSignal ??= signal);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, early);

  const servers = await startServerCluster({ databaseUrl: env.DATABASE_URL, fitPoolToDatabase: false, nextArgs: process.argv.slice(2) });
  // Said once every server process listens; a failed start is reported by the cluster and `exited`.
  servers.ready.then(
    () =>
      console.log(
        `Serving on port ${env.PORT} with ${servers.workers} server process${servers.workers === 1 ? "" : "es"} (pid ${process.pid}).`,
      ),
    () => {},
  );
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.off(signal, early);
    process.on(signal, () => servers.kill(signal));
  }
  if (stopSignal) servers.kill(stopSignal);
  return servers.exited;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Cannot serve: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
