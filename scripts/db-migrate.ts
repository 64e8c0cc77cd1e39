// npm run db:migrate: apply the committed migrations as the owner (DATABASE_OWNER_URL, else
// DATABASE_URL), or to the embedded database, and grant the app's role (DATABASE_URL's) its privileges.
import { EmbeddedPostgresError, resolveDatabaseUrl } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";

async function main(): Promise<void> {
  const database = await resolveDatabaseUrl();
  try {
    await migrateDatabase(database.url, { appUrl: database.appUrl });
    const { host, pathname } = new URL(database.url);
    console.log(`Migrations applied to ${database.dataDir ? `the embedded database in ${database.dataDir}` : `${host}${pathname}`}.`);
  } finally {
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(
      `Migration failed: ${err instanceof EmbeddedPostgresError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    process.exit(1);
  },
);
