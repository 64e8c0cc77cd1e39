// `npm run bench:reports -- --explain`: every statement the reports' services send, with its plan as
// it ran (EXPLAIN (ANALYZE, BUFFERS)), written to a file and summarised by time, slowest first.
import fs from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { schema, type Database } from "@/lib/db/client";
import { reportScenarios } from "./reports";

interface Captured {
  scenario: string;
  text: string;
  params: unknown[];
}

export async function explainReports(pool: pg.Pool, lastDay: string): Promise<string> {
  const captured: Captured[] = [];
  let current = "";
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (text, params) => void captured.push({ scenario: current, text, params }) },
  }) as unknown as Database;
  for (const s of await reportScenarios(pool, lastDay)) {
    current = `${s.report} ${s.scenario}`;
    await s.service(db);
  }
  const out: string[] = [];
  const summary: { scenario: string; ms: number; first: string }[] = [];
  for (const q of captured) {
    const { rows } = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.params);
    const plan = rows.map((r) => r["QUERY PLAN"]);
    const time = Number(/Execution Time: ([\d.]+) ms/.exec(plan.at(-1) ?? "")?.[1] ?? Number.NaN);
    summary.push({ scenario: q.scenario, ms: time, first: q.text.replace(/\s+/g, " ").slice(0, 90) });
    out.push(`=== ${q.scenario}: ${time} ms\n${q.text}\n-- params: ${JSON.stringify(q.params)}\n${plan.join("\n")}\n`);
  }
  const file = path.join("bench-results", `reports-explain-${new Date().toISOString().replace(/[:.]/g, "-")}.txt`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, out.join("\n"));
  console.log("\nStatements by execution time (EXPLAIN ANALYZE), slowest first:");
  for (const s of summary.sort((a, b) => b.ms - a.ms))
    console.log(`  ${s.ms.toFixed(1).padStart(9)} ms  ${s.scenario.padEnd(40)} ${s.first}`);
  console.log(`Plans: ${file}`);
  return file;
}
