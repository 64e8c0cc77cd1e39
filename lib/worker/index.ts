import "server-only";
import { getDb, type Database } from "@/lib/db/client";
import { env } from "@/lib/env";
import { configuredOrigin } from "@/lib/http/public-origin";
import { log } from "@/lib/log";
import { purgeExpiredIdempotencyKeys } from "@/lib/api/idempotency";
import { writePendingConfirmationMails } from "@/lib/services/email-confirmation";
import { purgeOpenHoldCounts } from "@/lib/services/holds";
import { expireDueIntents } from "@/lib/services/intent-lifecycle";
import { purgeExpiredRateLimits } from "@/lib/services/rate-limits";
import { mailConfigFromEnv } from "@/lib/mail/config";
import { deliveryConfigFromEnv } from "@/lib/services/webhook-delivery";
import { mailJob } from "./mail-job";
import { BackgroundRunner, type BackgroundJob } from "./runner";
import { deliveryJob } from "./delivery-job";
import { webhookDeliveryJob } from "./webhook-job";

/** Rows per sweep pass; a full batch means more are waiting, so the next pass starts at once. */
const SWEEP_BATCH = 500;

/** Every job the background worker runs. New periodic work is one more entry here. */
export function backgroundJobs(db: Database): BackgroundJob[] {
  return [
    webhookDeliveryJob(db, deliveryConfigFromEnv(), { pollMs: env.WORKER_POLL_MS }),
    mailJob(db, mailConfigFromEnv(), { pollMs: env.WORKER_POLL_MS }),
    // Confirmation mails recorded by the staff CLI, which cannot render them itself.
    {
      name: "confirmation-mail",
      intervalMs: env.WORKER_POLL_MS,
      run: async () => (await writePendingConfirmationMails(db, { limit: 50, origin: configuredOrigin() })) === 50,
    },
    // Paid orders on their way to the recipient (automatic delivery providers).
    deliveryJob(db, { pollMs: env.WORKER_POLL_MS }),
    // Records expiries (stock and the public status never wait for it) and gives promo uses back.
    {
      name: "expire-intents",
      intervalMs: env.SWEEP_INTERVAL_MS,
      run: async () => (await expireDueIntents(db, { limit: SWEEP_BATCH, origin: configuredOrigin() })) === SWEEP_BATCH,
    },
    {
      name: "purge-idempotency-keys",
      intervalMs: env.SWEEP_INTERVAL_MS,
      run: async () => (await purgeExpiredIdempotencyKeys(db, { limit: SWEEP_BATCH })) === SWEEP_BATCH,
    },
    // Spans of open holds that ended (lib/services/holds.ts): at most one row per account and 10 s.
    {
      name: "purge-open-hold-counts",
      intervalMs: env.SWEEP_INTERVAL_MS,
      run: async () => (await purgeOpenHoldCounts(db, { limit: 5_000 })) === 5_000,
    },
    // Ended rate-limit windows: one row per active key and window, so a batch is usually enough.
    {
      name: "purge-rate-limits",
      intervalMs: env.SWEEP_INTERVAL_MS,
      run: async () => (await purgeExpiredRateLimits(db, { limit: 5_000 })) === 5_000,
    },
  ];
}

// One worker per process, however many times the module is evaluated (dev reloads, bundles).
const globalForWorker = globalThis as unknown as { gkWorker?: BackgroundRunner };

/**
 * Starts the background worker unless WORKER_ENABLED=0; called from instrumentation.ts once the
 * server starts. Several instances may run against one database: every job claims its work
 * there, so none is done twice.
 */
export function startBackgroundWorker(): BackgroundRunner | null {
  if (env.WORKER_ENABLED !== "1") return null;
  if (globalForWorker.gkWorker) return globalForWorker.gkWorker;
  if (!env.DATABASE_URL) {
    log.warn({ area: "worker" }, "background worker not started: DATABASE_URL is not set");
    return null;
  }
  const db = getDb();
  const runner = new BackgroundRunner();
  for (const job of backgroundJobs(db)) runner.register(job);
  globalForWorker.gkWorker = runner.start();
  stopOnTermination(runner);
  return runner;
}

/** Stops claiming new work and resolves once every attempt in flight is recorded. */
export async function stopBackgroundWorker(): Promise<void> {
  await globalForWorker.gkWorker?.stop();
}

/**
 * On SIGTERM or SIGINT the worker stops claiming and finishes what it is sending. `next start`
 * handles the same signals by closing its HTTP server and then calling process.exit, with no hook
 * to wait on, so that exit is held until the worker has drained (at most one callback or mail timeout and 2 s).
 * Without this, an attempt cut mid-flight would be sent again by another instance once its
 * lease ran out: harmless for receivers that dedupe, but a duplicate all the same.
 */
function stopOnTermination(runner: BackgroundRunner): void {
  let stopped: Promise<void> | null = null;
  // Bounded: an attempt ends within its timeout, but a database that stopped answering must not
  // keep a terminating process alive (the launcher and orchestrators SIGKILL at ~15 s anyway).
  const graceMs = Math.max(env.WEBHOOK_TIMEOUT_MS, env.MAIL_TIMEOUT_MS) + 2_000;
  const onSignal = () => {
    stopped ??= Promise.race([runner.stop(), new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref())]);
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    if (!stopped) return exit(code);
    void stopped.finally(() => exit(code));
    return undefined as never;
  }) as typeof process.exit;
}
