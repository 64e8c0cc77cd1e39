// Operator CLI for currency rates: set some from the command line, import a file of them, list the
// ones in force. Storing rates refreshes which games can be gifted where.
import { parseArgs } from "node:util";
import { formatRubPerUnit, parseRateArgs, parseRateDay, todayUtc } from "@/lib/catalog/currency-rates";
import { RATE_JUMP_FACTOR, listCurrencyRates } from "@/lib/services/currency-rates";
import type { CurrencyRateInput } from "@/lib/services/giftability";
import { UsageError, runCli, withDatabase } from "./lib/cli";
import { asUsageError, readRatesFile, refuseJumps, storeRates, warnMissingRates } from "./lib/rates";

const USAGE = `Usage:
  npm run rates:set -- CUR=RATE [CUR=RATE ...] [--date YYYY-MM-DD] [--force]
  npm run rates:import -- FILE [--force]
  npm run rates:list

RATE is roubles per one unit of the currency, with a dot and at most 6 decimals (USD=81.5,
KZT=0.162). Regional prices are converted at the latest dated rate of their currency to judge a
gift against GIFT_PRICE_GAP; a currency without a rate refuses every gift priced in it.

--date   the day the rates are of (default: today, UTC); at most tomorrow, since the latest date applies at once
--force  store a rate more than ${RATE_JUMP_FACTOR} times above or below the one in force (else refused as a likely typo)

FILE is CSV with the header currency,date,rate (one rate a line; # starts a comment), or a JSON
array of {"currency": "USD", "date": "2026-11-01", "rate": "81.5"}. Every line is checked before
anything is stored; a rate of the same currency and day replaces the stored one.`;

const COMMANDS = ["set", "import", "list"];

async function main(command: string | undefined, argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { date: { type: "string" }, force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown command "${command}"`);
  if (command !== "set" && values.date !== undefined) throw new UsageError("--date goes with rates:set; a file dates each rate itself");
  if (command === "import" && positionals.length !== 1) throw new UsageError("rates:import takes one FILE");
  if (command === "list" && positionals.length > 0) throw new UsageError("rates:list takes no arguments");

  // Everything is read and checked before the database is touched.
  let rates: CurrencyRateInput[] = [];
  if (command === "set")
    rates = asUsageError(() => parseRateArgs(positionals, values.date === undefined ? todayUtc() : parseRateDay(values.date, "--date")));
  if (command === "import") rates = await readRatesFile(positionals[0]!);

  await withDatabase(async (db) => {
    if (command === "list") {
      console.log("currency  roubles per unit  as of       regions");
      for (const r of await listCurrencyRates(db)) {
        const rate = r.rubMicrosPerUnit === null ? "none" : formatRubPerUnit(r.rubMicrosPerUnit);
        console.log(`${r.currency.padEnd(8)}  ${rate.padStart(16)}  ${(r.asOf ?? "—").padEnd(10)}  ${r.regions.join(",") || "—"}`);
      }
    } else {
      await refuseJumps(db, rates, values.force === true);
      await storeRates(db, rates);
    }
    await warnMissingRates(db);
  });
}

const [command, ...args] = process.argv.slice(2);
runCli(command && COMMANDS.includes(command) ? `rates:${command}` : "rates", () => main(command, args), "Run with --help for usage.");
