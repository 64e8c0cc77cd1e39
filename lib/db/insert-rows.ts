import { getTableColumns, getTableName, type Table } from "drizzle-orm";

/**
 * A multi-row `INSERT … VALUES … RETURNING` for node-postgres, as text and parameters: the
 * statement drizzle's insert builds, without the query object it makes for every value (on a
 * batch of intents that was most of drizzle's share of a request: see docs/benchmarks.md). A field
 * a row leaves undefined is DEFAULT, as in drizzle; each value goes through its column's own
 * mapping (jsonb is serialised, and so on). `computed` columns take an SQL expression in every row,
 * the same one or one made for the row's place in the list.
 */
export function insertRows<T extends Table>(
  table: T,
  rows: Partial<T["$inferInsert"]>[],
  computed: Record<string, string | ((index: number) => string)>,
  returning: string[],
): { text: string; values: unknown[] } {
  const columns = Object.entries(getTableColumns(table)).filter(([key]) =>
    rows.some((row) => (row as Record<string, unknown>)[key] !== undefined),
  );
  const values: unknown[] = [];
  const tuples = rows.map((row, index) => {
    const cells = columns.map(([key, column]) => {
      const value = (row as Record<string, unknown>)[key];
      if (value === undefined) return "DEFAULT";
      values.push(value === null ? null : column.mapToDriverValue(value));
      return `$${values.length}`;
    });
    const expressions = Object.values(computed).map((c) => (typeof c === "function" ? c(index) : c));
    return `(${[...cells, ...expressions].join(", ")})`;
  });
  const names = [...columns.map(([, column]) => column.name), ...Object.keys(computed)].map(quoted);
  const text =
    `INSERT INTO ${quoted(getTableName(table))} (${names.join(", ")}) VALUES ${tuples.join(", ")} ` +
    `RETURNING ${returning.map(quoted).join(", ")}`;
  return { text, values };
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
