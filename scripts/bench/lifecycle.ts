// What every benchmark script shares: what it started is stopped again, in reverse order, on any
// exit or signal; its integer flags checked; and the PostgreSQL server it makes its databases in.
import os from "node:os";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { env } from "@/lib/env";
import { databaseUrl, freeLoopbackPort } from "../lib/processes";

/** The benchmarks' embedded PostgreSQL, when there is no DATABASE_URL. */
export const BENCH_EMBEDDED_DIR = ".data/bench-pg";

/** Stopped by `stopAll`, last started first. */
export const stops: (() => Promise<unknown>)[] = [];
let stopping: Promise<void> | undefined;

export function stopAll(): Promise<void> {
  return (stopping ??= (async () => {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(`cleanup: ${(err as Error).message}`));
  })());
}

/** On SIGINT, SIGTERM or SIGHUP: say so, stop everything, exit as the signal would. */
export function stopOnSignals(what: string): void {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping ${what}...`);
      void stopAll().finally(() => process.exit(128 + (os.constants.signals[signal] ?? 15)));
    });
  }
}

/** `--name`'s integer, `fallback` when absent; anything else outside [min, max] exits with 2 and says why. */
export function intArg(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`--${name} must be an integer from ${min} to ${max}`);
    process.exit(2);
  }
  return value;
}

/** An admin URL of the server to use: DATABASE_URL's, or the embedded one in BENCH_EMBEDDED_DIR (stopped with the rest). */
export async function postgresServer(): Promise<string> {
  if (env.DATABASE_URL) {
    console.log(`PostgreSQL: DATABASE_URL (${new URL(env.DATABASE_URL).host}).`);
    return databaseUrl(env.DATABASE_URL, "postgres");
  }
  const handle = await startEmbeddedPostgres({ dataDir: BENCH_EMBEDDED_DIR, port: await freeLoopbackPort(), database: "postgres" });
  stops.push(() => handle.stop());
  console.log(
    `PostgreSQL: embedded, ${handle.startedHere ? "started" : "already running"} on ${new URL(handle.url).host}, data in ${BENCH_EMBEDDED_DIR}.`,
  );
  return handle.url;
}
