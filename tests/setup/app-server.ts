import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createDb, createPool } from "@/lib/db/client";
import { API_SCOPES } from "@/lib/schemas/tokens";
import { createApiToken, revokeApiToken } from "@/lib/services/tokens";
import { partnerAccount } from "@/tests/support/partners";
import { createDatabase, dropDatabase, startNextProcess, stopChild } from "@/scripts/lib/processes";

export interface AppTokens {
  /** Every scope. */
  full: string;
  /** Every scope, of the same owner as `full`. */
  fullSameOwner: string;
  /** Every scope, of another owner: sees none of the intents `full` creates. */
  otherOwner: string;
  catalogOnly: string;
  giftsOnly: string;
  gearOnly: string;
  expired: string;
  revoked: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    appBaseUrl: string;
    /** The database the app under test uses, for checks of what a request did or did not write. */
    appDatabaseUrl: string;
    appTokens: AppTokens;
    /** The server's log (JSON lines), for checks of what a request logged. */
    appLogFile: string;
  }
}

/**
 * Serves the production build with `next start` on a free port against a database cloned from the
 * test template, so HTTP tests exercise the real server, wrapper and database end to end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = project.config.root;
  const { pgAdminUrl, pgTemplateDb } = project.getProvidedContext();
  const dbName = `${pgTemplateDb.replace(/^gk_template_/, "gk_test_")}_http_${crypto.randomBytes(3).toString("hex")}`;
  const url = await createDatabase(pgAdminUrl, dbName, { template: pgTemplateDb });
  const tokens = await createTokens(url);

  if (!fs.existsSync(path.join(root, ".next/BUILD_ID"))) {
    const build = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: "inherit",
    });
    if (build.status !== 0) throw new Error("next build failed");
  }

  const server = await startNextProcess("next-http", {
    DATABASE_URL: url,
    // Callbacks in HTTP tests go to receivers on this machine, and retry within a test's time.
    WEBHOOK_ALLOW_HOSTS: "127.0.0.1,localhost",
    WEBHOOK_RETRY_SCHEDULE: "200ms,500ms,1s",
    WORKER_POLL_MS: "100",
    // The tests play the reverse proxy: the X-Forwarded-For they send names the client.
    TRUST_PROXY: "1",
    // Limits on, high enough that no test but the ones about limits meets them (the race
    // tests send hundreds of requests with one token; the hostile-input properties many more).
    RATE_LIMIT_PER_TOKEN: "1000000",
    RATE_LIMIT_PER_IP: "1000000",
    RATE_LIMIT_PROMO: "1000000",
    RATE_LIMIT_GUESTS_PER_IP: "1000000",
  });

  project.provide("appBaseUrl", server.baseUrl);
  project.provide("appDatabaseUrl", url);
  project.provide("appTokens", tokens);
  project.provide("appLogFile", server.logFile);

  return async () => {
    await stopChild(server.child);
    await dropDatabase(pgAdminUrl, dbName);
  };
}

const ALL_SCOPES = [...API_SCOPES];
const HTTP_TESTS_HOLD_CAP = 1_000_000;

async function createTokens(url: string): Promise<AppTokens> {
  const pool = createPool(url, 2);
  try {
    const db = createDb(pool);
    // Both owners are partners (every scope), with a cap on open holds that the whole suite's
    // reservations (races of hundreds, property runs) never reach; the caps have their own tests.
    const userId = await partnerAccount(db, "http-tests@example.com", HTTP_TESTS_HOLD_CAP);
    const make = async (name: string, scopes: Parameters<typeof createApiToken>[1]["scopes"], expiresAt?: Date) =>
      (await createApiToken(db, { userId, name, scopes, expiresAt })).token;
    const revoked = await createApiToken(db, { userId, name: "revoked", scopes: ["catalog:read"] });
    await revokeApiToken(db, revoked.id);
    const other = await partnerAccount(db, "http-tests-other@example.com", HTTP_TESTS_HOLD_CAP);
    return {
      full: await make("full", ALL_SCOPES),
      fullSameOwner: await make("full, second", ALL_SCOPES),
      otherOwner: (await createApiToken(db, { userId: other, name: "other owner", scopes: ALL_SCOPES })).token,
      catalogOnly: await make("catalog", ["catalog:read"]),
      giftsOnly: await make("gifts", ["gifts:verify"]),
      gearOnly: await make("gear", ["gear:create"]),
      expired: await make("expired", ["catalog:read"], new Date(Date.now() - 1000)),
      revoked: revoked.token,
    };
  } finally {
    await pool.end();
  }
}
