import { describe, expect, it } from "vitest";
import { formatRubPerUnit, parseRateArgs, parseRateDay, parseRatesFile, parseRubPerUnit } from "./currency-rates";

const NOW = new Date("2026-11-26T22:00:00Z");

describe("parseRubPerUnit", () => {
  it.each([
    ["81.5", 81_500_000],
    ["0.162", 162_000],
    ["0.000001", 1],
    ["94", 94_000_000],
    [" 1.96 ", 1_960_000],
    ["1000000", 1_000_000_000_000],
  ])("reads %s exactly", (text, micros) => expect(parseRubPerUnit(text, "x")).toBe(micros));

  it.each(["0", "0.0000001", "-1", "81,5", "1e2", ".5", "abc", "", "1000000.000001", "Infinity"])("refuses %j", (text) => {
    expect(() => parseRubPerUnit(text, "USD=…")).toThrow(/^USD=…: the rate must be roubles per unit, above 0 and at most 1000000/);
  });
});

describe("parseRateDay", () => {
  it("takes a real day up to tomorrow (UTC), since the central bank publishes tomorrow's rate today", () => {
    expect(parseRateDay("2026-11-27", "--date", NOW)).toBe("2026-11-27");
    expect(parseRateDay("2020-02-29", "--date", NOW)).toBe("2020-02-29");
  });

  it.each([
    ["2026-11-28", "2026-11-28 is in the future"],
    ["2026-02-30", "the date must be a day written YYYY-MM-DD"],
    ["26-11-01", "the date must be a day written YYYY-MM-DD"],
    ["1999-12-31", "the date must be a day written YYYY-MM-DD"],
  ])("refuses %s", (day, message) => expect(() => parseRateDay(day, "--date", NOW)).toThrow(message));
});

describe("parseRateArgs", () => {
  it("reads CUR=RATE pairs of one day, the code in capitals", () => {
    expect(parseRateArgs(["usd=81.5", "KZT=0.162"], "2026-11-26")).toEqual([
      { currency: "USD", asOf: "2026-11-26", rubMicrosPerUnit: 81_500_000 },
      { currency: "KZT", asOf: "2026-11-26", rubMicrosPerUnit: 162_000 },
    ]);
  });

  it.each([
    [[], "give at least one rate as CUR=RATE"],
    [["USD"], '"USD": write each rate as CUR=RATE'],
    [["RUB=1"], '"RUB=1": RUB is the store\'s own currency'],
    [["DOLLAR=81"], '"DOLLAR=81": the currency must be a three-letter code'],
    [["USD=81.5", "usd=82"], "USD is given twice"],
  ])("refuses %j", (args, message) => expect(() => parseRateArgs(args, "2026-11-26")).toThrow(message));
});

describe("parseRatesFile", () => {
  it("reads CSV with its columns in any order, comments and blank lines, a BOM and CRLF", () => {
    const csv = "\uFEFF# from the central bank\r\nrate,currency,date\r\n81.5,USD,2026-11-01\r\n\r\n0.162,kzt,2026-11-01\r\n";
    expect(parseRatesFile(csv, "rates.csv", NOW)).toEqual([
      { currency: "USD", asOf: "2026-11-01", rubMicrosPerUnit: 81_500_000 },
      { currency: "KZT", asOf: "2026-11-01", rubMicrosPerUnit: 162_000 },
    ]);
  });

  it("reads a JSON array, rates as strings or numbers", () => {
    const json = JSON.stringify([
      { currency: "EUR", date: "2026-11-01", rate: 94.2 },
      { currency: "USD", date: "2026-10-01", rate: "79.8" },
    ]);
    expect(parseRatesFile(json, "rates.json", NOW)).toEqual([
      { currency: "EUR", asOf: "2026-11-01", rubMicrosPerUnit: 94_200_000 },
      { currency: "USD", asOf: "2026-10-01", rubMicrosPerUnit: 79_800_000 },
    ]);
  });

  it.each([
    ["", "rates.csv: the file has no rates"],
    ["currency,date,rate\n", "rates.csv: the file has no rates"],
    [
      "currency;date;rate\nUSD;2026-11-01;81.5",
      'rates.csv line 1: the first line must name the columns currency,date,rate (got "currency;date;rate")',
    ],
    ["USD,2026-11-01,81.5", "rates.csv line 1: the first line must name the columns currency,date,rate"],
    ["currency,date,rate\nUSD,2026-11-01,81.5\nEUR,2026-11-01,94,2", "rates.csv line 3: expected 3 values (currency,date,rate) and got 4"],
    ["currency,date,rate\n\nUSD,2026-11-01,0", "rates.csv line 3: the rate must be roubles per unit"],
    ["currency,date,rate\nUSD,01.11.2026,81.5", "rates.csv line 2: the date must be a day written YYYY-MM-DD"],
    ["currency,date,rate\nUSD,2026-11-01,81.5\nUSD,2026-11-01,82", "rates.csv: USD on 2026-11-01 is given twice"],
    ["[{", "rates.csv: not valid JSON"],
    ['{"USD": 81.5}', 'rates.csv: expected an array of {"currency", "date", "rate"}'],
    ['[{"currency": "USD", "rate": 81.5}]', 'rates.csv entry 1: "date" must be a string'],
    ['[{"currency": "USD", "date": "2026-11-01", "rate": true}]', 'rates.csv entry 1: "rate" must be a string or number'],
  ])("refuses %j", (text, message) => expect(() => parseRatesFile(text, "rates.csv", NOW)).toThrow(message));
});

describe("formatRubPerUnit", () => {
  it.each([
    [81_500_000, "81.5"],
    [162_000, "0.162"],
    [94_000_000, "94"],
    [1, "0.000001"],
  ])("%d -> %s", (micros, text) => expect(formatRubPerUnit(micros)).toBe(text));
});
