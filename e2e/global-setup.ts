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
    },
  });
  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_DATABASE_URL = app.databaseUrl;
  return app.stop;
}
