// The production server as `npm start` and `npm run serve` run it: WEB_CONCURRENCY server processes
// of the build sharing PORT, each with its share of the database's connections.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { answerClusterMetricsRequests } from "@/lib/cluster-metrics";
import { env } from "@/lib/env";
import { startCluster, type Cluster } from "./cluster";

export interface ServerClusterOptions {
  databaseUrl: string;
  /**
   * The database belongs to this start (the embedded one): shrink each process's pool so that all
   * of them fit its max_connections. With a database of the operator's, only warn.
   */
  fitPoolToDatabase: boolean;
  /** The servers' environment beyond this process's own (the launcher's generated settings). */
  env?: NodeJS.ProcessEnv;
  /** More `next start` arguments, such as `-H 127.0.0.1`; a standalone server.js reads HOSTNAME instead. */
  nextArgs?: string[];
  log?: (line: string) => void;
}

export interface ServerCluster extends Cluster {
  workers: number;
  poolSize: number;
}

/** One per core this process may use, unless WEB_CONCURRENCY says otherwise. */
export function serverProcessCount(): number {
  return env.WEB_CONCURRENCY ?? os.availableParallelism();
}

export async function startServerCluster(options: ServerClusterOptions): Promise<ServerCluster> {
  const log = options.log ?? ((line: string) => console.log(line));
  const workers = serverProcessCount();
  const poolSize = await poolSizeFor(options.databaseUrl, workers, options.fitPoolToDatabase, log);
  const cluster = startCluster({
    workers,
    ...serverEntry(options.nextArgs ?? []),
    execArgv: serverNodeFlags(),
    // The owner's URL never reaches a server process: migrations are not theirs to run.
    env: {
      ...options.env,
      NODE_ENV: "production",
      DATABASE_URL: options.databaseUrl,
      DATABASE_OWNER_URL: "",
      DB_POOL_SIZE: String(poolSize),
    },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    log,
  });
  // A scrape of /api/metrics reaches one server process, which asks this process for all of them.
  answerClusterMetricsRequests();
  return Object.assign(cluster, { workers, poolSize });
}

/**
 * Node's flags for a server process: the old-space limit of SERVER_HEAP_MIB. Without one, V8 sizes
 * the heap from the machine's memory and lets it grow to several hundred MiB of garbage between full
 * collections under load (380 MiB peak RSS in `npm run bench`'s write phase; 175 MiB with 256).
 */
export function serverNodeFlags(heapMiB: number = env.SERVER_HEAP_MIB): string[] {
  return heapMiB > 0 ? [`--max-old-space-size=${heapMiB}`] : [];
}

/**
 * A standalone build's server.js beside this module when it runs from the container image (bundled
 * into the standalone directory), else `next start` of the build in the working directory.
 */
function serverEntry(nextArgs: string[]): { exec: string; args: string[] } {
  const standalone = path.join(import.meta.dirname, "server.js");
  if (fs.existsSync(standalone)) return { exec: standalone, args: [] };
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  return { exec: nextBin, args: ["start", "-p", String(env.PORT), ...nextArgs] };
}

/**
 * DB_POOL_SIZE is per process, so the processes together may open `workers` times as many
 * connections; more than the server allows fails requests under load with "too many clients".
 * A fifth of the server's connections stay free for operator commands, migrations and the like.
 */
async function poolSizeFor(url: string, workers: number, fit: boolean, log: (line: string) => void): Promise<number> {
  const wanted = env.DB_POOL_SIZE;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  let usable: number;
  try {
    await client.connect();
    const { rows } = await client.query<{ usable: number }>(
      "SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int AS usable",
    );
    usable = rows[0]!.usable;
  } catch {
    // Not reachable yet (a container may start before its database): the readiness check reports it.
    return wanted;
  } finally {
    await client.end().catch(() => {});
  }
  const budget = Math.floor(usable * 0.8);
  if (workers * wanted <= budget) return wanted;
  if (!fit) {
    log(
      `Warning: ${workers} server processes × DB_POOL_SIZE ${wanted} = ${workers * wanted} connections, more than 80 % of the ` +
        `database's ${usable}; lower DB_POOL_SIZE or WEB_CONCURRENCY, or put PgBouncer in front (docs/deployment.md).`,
    );
    return wanted;
  }
  const size = Math.max(2, Math.floor(budget / workers));
  log(`${workers} server processes share the embedded database's ${usable} connections: ${size} each (DB_POOL_SIZE ${wanted}).`);
  return size;
}
