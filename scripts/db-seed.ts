// Operator CLI: write the generated demo catalog (games, gear, promo codes) into the app's database.
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { DEFAULT_DEMO_GAMES, DEFAULT_DEMO_SEED } from "@/lib/demo/generate";
import { seedDemoData } from "@/lib/demo/seed";
import { UsageError, runCli, withDatabase } from "./lib/cli";

const USAGE = `Usage: npm run db:seed -- [--games N] [--seed S] [--force]

Writes a generated demo catalog into the app's database: DATABASE_URL, or the embedded one when
DATABASE_URL is not set.

--games  catalog size, anchors included (default ${DEFAULT_DEMO_GAMES}, 7 to 1000000)
--seed   generator seed; the same seed gives the same catalog (default ${DEFAULT_DEMO_SEED})
--force  seed even if the database already has games: generated rows replace those with
         the same ids, everything else stays (nothing is deleted)`;

function integerOption(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got "${value}")`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      games: { type: "string" },
      seed: { type: "string" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const games = integerOption("games", values.games, DEFAULT_DEMO_GAMES, 7, 1_000_000);
  const seed = integerOption("seed", values.seed, DEFAULT_DEMO_SEED, 0, 2 ** 32 - 1);
  await withDatabase(async (db) => {
    const { rows } = await db.execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM games`);
    const existing = rows[0]?.count ?? 0;
    if (existing > 0 && !values.force) {
      throw new UsageError(`the database already has ${existing} games; pass --force to write the demo catalog over them`);
    }
    const started = performance.now();
    const summary = await seedDemoData(db, { games, seed });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Seeded ${summary.games} games (${summary.packages} packages), ${summary.gearItems} gear items and ` +
        `${summary.promoCodes} promo codes in ${seconds} s (seed ${seed}).`,
    );
  }, 4);
}

runCli("db:seed", () => main(process.argv.slice(2)), "Run with --help for usage.");
