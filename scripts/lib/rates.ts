// What the CLIs that store currency rates share (rates:set, rates:import, catalog:import --rates).
import fs from "node:fs/promises";
import { RateInputError, formatRubPerUnit, parseRatesFile } from "@/lib/catalog/currency-rates";
import type { Database } from "@/lib/db/client";
import { RATE_JUMP_FACTOR, listCurrencyRates, rateJumps, setCurrencyRates } from "@/lib/services/currency-rates";
import type { CurrencyRateInput } from "@/lib/services/giftability";
import { UsageError } from "./cli";

/** Bad rate input is a mistake in how the command was called: exit code 2, nothing stored. */
export function asUsageError<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof RateInputError) throw new UsageError(err.message);
    throw err;
  }
}

/** A rates file read and checked whole (CSV or JSON, see parseRatesFile). */
export async function readRatesFile(file: string): Promise<CurrencyRateInput[]> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return asUsageError(() => parseRatesFile(text, file));
}

/** Refuses rates that look like typos (a misplaced dot) unless forced; reads the database, writes nothing. */
export async function refuseJumps(db: Database, rates: readonly CurrencyRateInput[], force: boolean): Promise<void> {
  if (force) return;
  const jumps = await rateJumps(db, rates);
  if (jumps.length === 0) return;
  const list = jumps.map((j) => `${j.currency} ${formatRubPerUnit(j.from)} -> ${formatRubPerUnit(j.to)}`).join(", ");
  throw new UsageError(`${list}: more than ${RATE_JUMP_FACTOR} times away from the rate in force; check the dot, or pass --force`);
}

/** Stores the rates and refreshes giftability, then says what changed. */
export async function storeRates(db: Database, rates: readonly CurrencyRateInput[]): Promise<void> {
  const { before, after } = await setCurrencyRates(db, rates);
  const list = rates.map((r) => `${r.currency} ${formatRubPerUnit(r.rubMicrosPerUnit)} (${r.asOf})`).join(", ");
  console.log(`Stored ${rates.length} ${rates.length === 1 ? "rate" : "rates"}: ${list}.`);
  console.log(`Giftable now: ${after} game-region pairs (were ${before}).`);
}

/** One warning per currency regional prices use without a rate: every gift priced in it is refused. */
export async function warnMissingRates(db: Database): Promise<void> {
  for (const r of await listCurrencyRates(db))
    if (r.rubMicrosPerUnit === null && r.regions.length > 0)
      console.log(
        `  warning: prices in ${r.currency} (${r.regions.join(", ")}) have no rate, so gifts there are refused: npm run rates:set -- ${r.currency}=RATE`,
      );
}
