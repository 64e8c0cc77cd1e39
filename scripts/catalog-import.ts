// Operator CLI: import a file of store `appdetails` responses (fetched with cc=ru) into the app's database
// (DATABASE_URL, or the embedded one).
import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import { DEFAULT_GIFT_REGIONS, importAppdetails } from "@/lib/catalog/import-appdetails";
import { UsageError, runCli, withDatabase } from "./lib/cli";

const USAGE = `Usage: npm run catalog:import -- FILE [--regions RU,KZ]

FILE is JSON from the store's appdetails endpoint: one object keyed by app id, an array of such
objects, or one per line (JSON lines). Only entries of type "game" are imported; the rest are
reported as skipped. Games already in the catalog keep their rank, curated lists, Russian title
and gift regions; their text, genres, prices and packages are replaced.

--regions  gift regions for games new to the catalog (default ${DEFAULT_GIFT_REGIONS.join(",")})`;

function parseRegions(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const regions = value
    .split(",")
    .map((r) => r.trim().toUpperCase())
    .filter(Boolean);
  const bad = regions.find((r) => !/^[A-Z]{2}$/.test(r));
  if (bad !== undefined) throw new UsageError(`--regions takes two-letter codes separated by commas (got "${bad}")`);
  return [...new Set(regions)];
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { regions: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) throw new UsageError("give exactly one FILE to import");
  const defaultGiftRegions = parseRegions(values.regions);
  const text = await fs.readFile(positionals[0]!, "utf8");

  await withDatabase(async (db) => {
    const summary = await importAppdetails(db, text, { defaultGiftRegions });
    console.log(`Imported ${summary.imported} new games, updated ${summary.updated}, skipped ${summary.skipped.length}.`);
    for (const s of summary.skipped) console.log(`  skipped ${s.entry}: ${s.reason}`);
    for (const w of summary.warnings) console.log(`  warning: ${w}`);
  });
}

runCli("catalog:import", () => main(process.argv.slice(2)), "Run with --help for usage.");
