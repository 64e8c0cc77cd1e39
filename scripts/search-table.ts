// Prints the first catalog result for the searches issue 14 lists: npm run search:table [-- query ...]
import { createDb, createPool } from "@/lib/db/client";
import { resolveDatabaseUrl } from "@/lib/db/embedded";
import { listCatalog } from "@/lib/services/catalog";

// Issue 14's searches that found nothing, then controls that always worked (docs/search.md).
const QUERIES = ["portl", "cyberpnk", "киберпанк", "кибер", "элден ринг", "CS2", "portal", "cyberpunk", "elden", "Portal 2", "dota"];

async function main(argv: string[]): Promise<void> {
  const database = await resolveDatabaseUrl();
  const pool = createPool(database.url, 2);
  try {
    const db = createDb(pool);
    console.log("| query | first result | total | ms |\n|---|---|---|---|");
    for (const query of argv.length ? argv : QUERIES) {
      const started = performance.now();
      const { games, total } = await listCatalog(db, { page: 0, limit: 5, query, sort: "relevance", lang: "en" }, "http://localhost");
      const ms = (performance.now() - started).toFixed(1);
      console.log(`| \`${query}\` | ${games[0]?.title ?? "—"} | ${total} | ${ms} |`);
    }
  } finally {
    await pool.end();
    await database.stop();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
