// Dated currency rates as an operator gives them (on the command line or in a file), read into the
// form currency_rates keeps: roubles per unit in millionths, exactly (no floating point). Pure.

import type { CurrencyRateInput } from "@/lib/services/giftability";

/** Bad rate input: what is wrong and where, in words an operator can act on. */
export class RateInputError extends Error {}

/** The most roubles one unit of a currency may be worth (a typo guard; the dearest real currency is a few hundred). */
export const MAX_RUB_PER_UNIT = 1_000_000;
const MICROS = 1_000_000;
/** How far after today (UTC) a rate may be dated: the Bank of Russia publishes tomorrow's rate today. */
const MAX_DAYS_AHEAD = 1;

/** Roubles per unit written as a decimal ("81.5", "0.162") in millionths; RateInputError when it is not one. */
export function parseRubPerUnit(text: string, where: string): number {
  const value = text.trim();
  const match = /^(\d{1,7})(?:\.(\d{1,6}))?$/.exec(value);
  const micros = match ? Number(match[1]) * MICROS + Number((match[2] ?? "").padEnd(6, "0")) : NaN;
  if (!match || micros <= 0 || micros > MAX_RUB_PER_UNIT * MICROS)
    throw new RateInputError(
      `${where}: the rate must be roubles per unit, above 0 and at most ${MAX_RUB_PER_UNIT}, with a dot and at most 6 decimals, such as 81.5 (got "${value}")`,
    );
  return micros;
}

/** An ISO 4217 code other than the rouble's, in capitals. */
export function parseCurrency(text: string, where: string): string {
  const code = text.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code))
    throw new RateInputError(`${where}: the currency must be a three-letter code such as USD (got "${text.trim()}")`);
  if (code === "RUB") throw new RateInputError(`${where}: RUB is the store's own currency; its rate is always 1`);
  return code;
}

/** A calendar day, YYYY-MM-DD, no later than tomorrow (UTC): a rate dated later would apply at once and stay until then. */
export function parseRateDay(text: string, where: string, now: Date = new Date()): string {
  const day = text.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== day || date.getUTCFullYear() < 2000)
    throw new RateInputError(`${where}: the date must be a day written YYYY-MM-DD, such as 2026-11-01 (got "${day}")`);
  const latest = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + MAX_DAYS_AHEAD);
  if (date.getTime() > latest)
    throw new RateInputError(
      `${where}: ${day} is in the future; the latest dated rate applies at once, so date rates no later than tomorrow`,
    );
  return day;
}

/** Today in UTC, YYYY-MM-DD: the default date of rates given without one. */
export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

/** `USD=81.5 EUR=94.2` from the command line, all of one day. */
export function parseRateArgs(args: readonly string[], asOf: string): CurrencyRateInput[] {
  if (args.length === 0) throw new RateInputError("give at least one rate as CUR=RATE, such as USD=81.5 (roubles per unit)");
  const rates = args.map((arg) => {
    const eq = arg.indexOf("=");
    if (eq < 0) throw new RateInputError(`"${arg}": write each rate as CUR=RATE, such as USD=81.5 (roubles per unit)`);
    return {
      currency: parseCurrency(arg.slice(0, eq), `"${arg}"`),
      asOf,
      rubMicrosPerUnit: parseRubPerUnit(arg.slice(eq + 1), `"${arg}"`),
    };
  });
  return withoutRepeats(rates, (r) => `${r.currency} is given twice`);
}

/**
 * A file of rates: CSV with the header `currency,date,rate` (in any order; blank lines and lines
 * starting with # are skipped), or a JSON array of `{ "currency", "date", "rate" }` where `rate` is
 * a string or a number. Every line is checked before any is used; the first problem is reported
 * with its line (or entry).
 */
export function parseRatesFile(text: string, name: string, now: Date = new Date()): CurrencyRateInput[] {
  const body = text.replace(/^\uFEFF/, "").trim();
  if (body === "") throw new RateInputError(`${name}: the file has no rates`);
  const rows = /^[[{]/.test(body) ? jsonRows(body, name) : csvRows(body, name);
  if (rows.length === 0) throw new RateInputError(`${name}: the file has no rates`);
  const rates = rows.map(({ where, currency, date, rate }) => ({
    currency: parseCurrency(currency, where),
    asOf: parseRateDay(date, where, now),
    rubMicrosPerUnit: parseRubPerUnit(rate, where),
  }));
  return withoutRepeats(rates, (r) => `${name}: ${r.currency} on ${r.asOf} is given twice`);
}

interface RateRow {
  where: string;
  currency: string;
  date: string;
  rate: string;
}

const COLUMNS = ["currency", "date", "rate"] as const;

function csvRows(body: string, name: string): RateRow[] {
  const lines = body.split(/\r?\n/).map((text, i) => ({ text: text.trim(), number: i + 1 }));
  const content = lines.filter((l) => l.text !== "" && !l.text.startsWith("#"));
  const [header, ...data] = content;
  const columns = header!.text.split(",").map((c) => c.trim().toLowerCase());
  const index = Object.fromEntries(COLUMNS.map((c) => [c, columns.indexOf(c)])) as Record<(typeof COLUMNS)[number], number>;
  if (COLUMNS.some((c) => index[c] < 0) || columns.length !== COLUMNS.length)
    throw new RateInputError(
      `${name} line ${header!.number}: the first line must name the columns currency,date,rate (got "${header!.text}")`,
    );
  return data.map(({ text, number }) => {
    const cells = text.split(",");
    const where = `${name} line ${number}`;
    if (cells.length !== COLUMNS.length)
      throw new RateInputError(`${where}: expected 3 values (currency,date,rate) and got ${cells.length}; write decimals with a dot`);
    return { where, currency: cells[index.currency]!, date: cells[index.date]!, rate: cells[index.rate]! };
  });
}

function jsonRows(body: string, name: string): RateRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    throw new RateInputError(`${name}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!Array.isArray(parsed)) throw new RateInputError(`${name}: expected an array of {"currency", "date", "rate"}`);
  return parsed.map((entry: unknown, i) => {
    const where = `${name} entry ${i + 1}`;
    const e = (entry ?? {}) as Record<string, unknown>;
    const field = (key: string, kinds: string[]) => {
      const value = e[key];
      if (!kinds.includes(typeof value)) throw new RateInputError(`${where}: "${key}" must be a ${kinds.join(" or ")}`);
      return String(value);
    };
    return { where, currency: field("currency", ["string"]), date: field("date", ["string"]), rate: field("rate", ["string", "number"]) };
  });
}

function withoutRepeats(rates: CurrencyRateInput[], message: (r: CurrencyRateInput) => string): CurrencyRateInput[] {
  const seen = new Set<string>();
  for (const r of rates) {
    const key = `${r.currency} ${r.asOf}`;
    if (seen.has(key)) throw new RateInputError(message(r));
    seen.add(key);
  }
  return rates;
}

/** Roubles per unit for people: 81500000 -> "81.5". */
export function formatRubPerUnit(micros: number): string {
  const whole = Math.floor(micros / MICROS);
  const fraction = String(micros % MICROS)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}
