// CSV as RFC 4180 writes it (comma, CRLF, a field quoted when it holds a comma, quote or line
// break, a quote doubled), made safe to open in a spreadsheet: a cell that starts with = + - @
// (or a tab or carriage return) would run as a formula there (CSV injection, OWASP), so it gets a
// leading apostrophe, which spreadsheets show as text. Shoppers type e-mails and partners send
// attribution, so any cell may be hostile.

const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | Date | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  // Numbers are ours (kopecks, counts): a negative one is a number, not a formula.
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
