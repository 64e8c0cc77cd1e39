// CSV for spreadsheets (RFC 4180, CRLF lines). A cell a spreadsheet would run as a formula (it starts
// with = + - @, a tab or a carriage return) is given a leading apostrophe, so a campaign named
// "=HYPERLINK(...)" by whoever shared a link shows as text.

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
