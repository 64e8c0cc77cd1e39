// Operator CLI: import files of store `appdetails` responses (the store's, fetched with cc=ru, and one per
// other region) into the app's database (DATABASE_URL, or the embedded one).
import fs from "node:fs";
import { parseArgs } from "node:util";
import {
  DEFAULT_GIFT_REGIONS,
  importAppdetails,
  readAppdetails,
  readRegionalAppdetails,
  type RegionalFile,
} from "@/lib/catalog/import-appdetails";
import { importEntryText, importSkipText, importWarningText, type ImportProblemList } from "@/lib/catalog/import-problems";
import { messages } from "@/lib/i18n/messages";
import { UsageError, runCli, withDatabase } from "./lib/cli";
import { readRatesFile, refuseJumps, warnMissingRates } from "./lib/rates";

const USAGE = `Usage: npm run catalog:import -- FILE [CC=FILE ...] [--regions RU,KZ] [--rates RATES_FILE [--force]]

FILE is JSON from the store's appdetails endpoint fetched with cc=ru (prices in roubles): one object
keyed by app id, an array of such objects, or one per line (JSON lines). Only entries of type "game"
are imported; the rest are reported as skipped. Games already in the catalog keep their rank,
curated lists, Russian title and gift regions; their text, genres, prices and packages are replaced.

CC=FILE (KZ=appdetails-kz.json) is the same endpoint fetched with cc=kz: each package's price in
that region, in the file's currency; an app the file answers success: false for, or a package
without a price there, is restricted in the region. Its prices are judged at the latest rate of
their currency (currency_rates): give the rates with --rates, or later with npm run rates:set.

--regions  gift regions for games new to the catalog (default ${DEFAULT_GIFT_REGIONS.join(",")})
--rates    a rates file as npm run rates:import reads it (CSV currency,date,rate, or JSON), stored
           with the import; --force lets a rate move more than twice the one in force`;

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
    options: { regions: { type: "string" }, rates: { type: "string" }, force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const regionalArgs = positionals.filter((p) => /^[A-Za-z]{2}=/.test(p));
  const storeFiles = positionals.filter((p) => !regionalArgs.includes(p));
  if (storeFiles.length !== 1) throw new UsageError("give exactly one FILE fetched with cc=ru, and any number of CC=FILE");
  const defaultGiftRegions = parseRegions(values.regions);
  const regionOf = (arg: string) => arg.slice(0, 2).toUpperCase();
  if (regionalArgs.some((arg) => regionOf(arg) === "RU"))
    throw new UsageError("RU prices are the store's own: give the cc=ru file as FILE");
  // Each file is read as a stream, as the back office reads an upload: a file of junk lines costs
  // one line's memory and a bounded list of problems, whatever its size.
  const parsed = await readAppdetails(fs.createReadStream(storeFiles[0]!), { defaultGiftRegions });
  const regional: RegionalFile[] = [];
  for (const arg of regionalArgs) regional.push(await readRegionalAppdetails(fs.createReadStream(arg.slice(3)), regionOf(arg)));
  const rates = values.rates === undefined ? [] : await readRatesFile(values.rates);

  await withDatabase(async (db) => {
    await refuseJumps(db, rates, values.force === true);
    const summary = await importAppdetails(db, parsed, { regional, rates });
    if (rates.length > 0) console.log(`Stored ${rates.length} currency ${rates.length === 1 ? "rate" : "rates"} from ${values.rates}.`);
    console.log(`Imported ${summary.imported} new games, updated ${summary.updated}, skipped ${summary.skipped.total}.`);
    const texts = messages.en.adminCatalog.catalog.import.problems;
    for (const s of summary.skipped.first) console.log(`  skipped ${importEntryText(s, texts)}: ${importSkipText(s, texts)}`);
    printRest("skipped", summary.skipped, texts.skipKinds);
    for (const w of summary.warnings.first) console.log(`  warning: ${importWarningText(w, texts)}`);
    printRest("warnings", summary.warnings, texts.warningKinds);
    await warnMissingRates(db);
  });
}

/** A list longer than what it shows: how many there were of each reason. */
function printRest(what: string, list: ImportProblemList<{ reason: string }>, kinds: Readonly<Record<string, string>>): void {
  if (list.total <= list.first.length) return;
  const byReason = Object.entries(list.byReason).map(([reason, n]) => `${kinds[reason] ?? reason} ${n}`);
  console.log(`  ... ${list.total - list.first.length} more ${what} not listed; all ${list.total} by reason: ${byReason.join(", ")}`);
}

runCli("catalog:import", () => main(process.argv.slice(2)), "Run with --help for usage.");
