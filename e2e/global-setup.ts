import { startAppUnderTest } from "@/scripts/lib/app-under-test";

/**
 * Starts what the browser tests use: the production build against a freshly migrated database
 * seeded with the demo catalog. Specs read E2E_BASE_URL and E2E_DATABASE_URL, which workers inherit.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const app = await startAppUnderTest({
    name: "e2e",
    games: 3000,
    embeddedDir: ".data/e2e-pg",
    env: {
      WEBHOOK_ALLOW_HOSTS: "127.0.0.1,localhost",
      // Every spec's browser comes from 127.0.0.1: one address's limits would be the whole suite's.
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PROMO: "100000",
      RATE_LIMIT_SIGNIN: "1000",
      RATE_LIMIT_GUESTS_PER_IP: "100000",
      HOLD_LIMIT_PER_ADDRESS: "100000",
    },
  });
  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_DATABASE_URL = app.databaseUrl;
  return app.stop;
}
