import { is } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { PgTransaction } from "drizzle-orm/pg-core";
import pg from "pg";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import * as schema from "./schema";

/** The app's database: drizzle over a pool, whose `$client` takes text-and-parameters statements. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

// Next's dev server re-evaluates modules on every change; keep one pool per process.
const globalForDb = globalThis as unknown as { gkPool?: pg.Pool; gkDb?: Database };

export function createPool(url: string, max = env.DB_POOL_SIZE): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on("error", (err) => log.error({ area: "db", err }, "database pool error"));
  return pool;
}

export function createDb(pool: pg.Pool): Database {
  return drizzle(pool, { schema });
}

/** The process-wide database. DATABASE_URL is set by the launcher (scripts/start.ts) or the operator. */
export function getDb(): Database {
  if (!globalForDb.gkDb) {
    if (!env.DATABASE_URL) {
      throw new Error("DATABASE_URL is not set: start the app with `npm start`, which provides a database");
    }
    globalForDb.gkPool = createPool(env.DATABASE_URL);
    globalForDb.gkDb = createDb(globalForDb.gkPool);
  }
  return globalForDb.gkDb;
}

export { schema };

/** The handle a `db.transaction(async (tx) => ...)` callback receives. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The pool or a transaction: services that write take either, so a caller can make them part of its own transaction. */
export type DbExecutor = Database | Transaction;

/**
 * Whether `db` is a transaction rather than the pool. By drizzle's entity kind, not `instanceof`:
 * the server's bundle may hold more than one copy of drizzle's classes (it did: every intent made
 * inside a transaction went to the pool's batches, whose `$client` a transaction lacks).
 */
export const isTransaction = (db: DbExecutor): db is Transaction => is(db, PgTransaction);
