// What the campaign rollup's trigger (drizzle/0023) costs the write path: one INSERT of an attributed
// intent with and without it, in-process; and POST /gifts/verify at 32 connections, without
// attribution (the benchmark's body: the trigger's WHEN test alone), with every request under one
// campaign (all of them upserting the same rollup row), beside the bare route sending the same bytes.
import type pg from "pg";
import { createDb } from "@/lib/db/client";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
import { measure, type Measurement } from "./load";
import { ms } from "./report";

const OWNER = "write-cost@reports-bench.example";
const GIFT = {
  item: 620,
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: OWNER,
  fee: "excluded",
};
const CAMPAIGN = { utm_source: "bench", utm_medium: "cpc", utm_campaign: "write-cost" };

export interface InsertCost {
  trigger: "on" | "off";
  inserts: number;
  /** Milliseconds per autocommit INSERT, commit included. */
  p50: number;
  mean: number;
}

export interface TriggerTime {
  inserts: number;
  /** Milliseconds of the INSERT's execution (EXPLAIN ANALYZE, commit excluded), and of the rollup's trigger in it. */
  insertP50: number;
  triggerP50: number;
}

export interface WriteCostRow {
  scenario: string;
  result: Measurement;
  /** Throughput against the bare route's. */
  vsFloor: number;
}

export interface WriteCost {
  inserts: InsertCost[];
  trigger: TriggerTime;
  http: WriteCostRow[];
}

const INSERT_COPY = (email: string) => `
  INSERT INTO intents (kind, token_id, app_id, package_id, gift_region, invite_url, recipient_steam_id, email, fee_mode,
    intent_amount, discount_amount, fee_amount, payment_amount, attribution, expires_at)
  SELECT kind, token_id, app_id, package_id, gift_region, invite_url, recipient_steam_id, '${email}', fee_mode,
    intent_amount, discount_amount, fee_amount, payment_amount, $2::jsonb, now() + interval '15 minutes'
  FROM intents WHERE id = $1`;

/**
 * The rollup trigger's own time in one attributed INSERT, as EXPLAIN ANALYZE reports it per trigger,
 * `n` times, each rolled back: the statement's cost without the commit's wait on the disk.
 */
export async function measureTriggerTime(pool: pg.Pool, n = 200): Promise<TriggerTime> {
  const client = await pool.connect();
  const inserts: number[] = [];
  const triggers: number[] = [];
  try {
    const { rows } = await client.query<{ id: string }>("SELECT id FROM intents WHERE kind = 'gift' ORDER BY created_at DESC LIMIT 1");
    for (let i = 0; i < n; i++) {
      await client.query("BEGIN");
      try {
        const { rows: plan } = await client.query<{
          "QUERY PLAN": [{ "Execution Time": number; Triggers: { "Trigger Name": string; Time: number }[] }];
        }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${INSERT_COPY("trigger-time@reports-bench.example")}`, [rows[0]!.id, JSON.stringify(CAMPAIGN)]);
        const result = plan[0]!["QUERY PLAN"][0];
        inserts.push(result["Execution Time"]);
        triggers.push(result.Triggers.find((t) => t["Trigger Name"] === "intents_campaign_daily_insert")?.Time ?? Number.NaN);
      } finally {
        await client.query("ROLLBACK");
      }
    }
  } finally {
    client.release();
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? Number.NaN;
  return { inserts: n, insertP50: median(inserts), triggerP50: median(triggers) };
}

/**
 * Single INSERTs of an attributed intent (a copy of a seeded one), `n` with the rollup's trigger and `n`
 * without, in alternating blocks. The rows made go again afterwards, those made without the trigger
 * before it is switched back on, so the rollup stays exact.
 */
export async function measureInsertCost(pool: pg.Pool, n = 400): Promise<InsertCost[]> {
  const client = await pool.connect();
  const marker = "insert-cost@reports-bench.example";
  const insert = INSERT_COPY(marker);
  const samples = { on: [] as number[], off: [] as number[] };
  try {
    const { rows } = await client.query<{ id: string }>("SELECT id FROM intents WHERE kind = 'gift' ORDER BY created_at DESC LIMIT 1");
    const source = rows[0]!.id;
    const attribution = JSON.stringify(CAMPAIGN);
    for (let block = 0; block < 4; block++) {
      const trigger = block % 2 === 0 ? "on" : "off";
      if (trigger === "off") await client.query("ALTER TABLE intents DISABLE TRIGGER intents_campaign_daily_insert");
      try {
        for (let i = 0; i < n / 2; i++) {
          const t = performance.now();
          await client.query({ name: "insert-cost", text: insert, values: [source, attribution] });
          samples[trigger].push(performance.now() - t);
        }
      } finally {
        if (trigger === "off") {
          await client.query("ALTER TABLE intents DISABLE TRIGGER intents_campaign_daily_delete");
          await client.query(`DELETE FROM intents WHERE email = '${marker}' AND attribution IS NOT NULL`);
          await client.query("ALTER TABLE intents ENABLE TRIGGER intents_campaign_daily_delete");
          await client.query("ALTER TABLE intents ENABLE TRIGGER intents_campaign_daily_insert");
        }
      }
      if (trigger === "on") await client.query(`DELETE FROM intents WHERE email = '${marker}'`);
    }
  } finally {
    client.release();
  }
  return (["on", "off"] as const).map((trigger) => {
    const sorted = [...samples[trigger]].sort((a, b) => a - b);
    return {
      trigger,
      inserts: sorted.length,
      p50: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
      mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    };
  });
}

/**
 * POST /gifts/verify at `connections`, against the bare route (the server needs BENCH_FLOOR=1 and a
 * per-token limit the load cannot reach, as scripts/bench.ts starts it). The intents made are
 * deleted afterwards (the rollup follows the delete).
 */
export async function measureVerifyCost(
  pool: pg.Pool,
  origin: string,
  { connections = 32, duration = 10 }: { connections?: number; duration?: number } = {},
): Promise<WriteCostRow[]> {
  const db = createDb(pool);
  const userId = await ensureUser(db, OWNER, "write cost");
  const token = await createApiToken(db, { userId, name: `write cost ${new Date().toISOString()}`, scopes: ["gifts:verify"] });
  const headers = { authorization: `Bearer ${token.token}`, "content-type": "application/json" };
  const plain = JSON.stringify(GIFT);
  const attributed = JSON.stringify({ ...GIFT, attribution: CAMPAIGN });
  const probe = await fetch(`${origin}/api/v1/gifts/verify`, { method: "POST", headers, body: plain });
  const bytes = (await probe.arrayBuffer()).byteLength;
  if (probe.status !== 201) throw new Error(`POST /gifts/verify answered ${probe.status}`);
  const run = (path: string, body?: string) =>
    measure({
      origin,
      path,
      connections,
      duration,
      warmup: 1,
      ...(body ? { method: "POST" as const, headers, body } : {}),
    });
  const floor = await run(`/api/bench/floor?bytes=${bytes}`);
  const rows: WriteCostRow[] = [{ scenario: "bare route (floor)", result: floor, vsFloor: 1 }];
  // Twice each, alternating, so a drift in the machine's load shows rather than favouring one.
  for (let round = 1; round <= 2; round++) {
    for (const [scenario, body] of [
      ["verify, no attribution", plain],
      ["verify, one campaign for all", attributed],
    ] as const) {
      const result = await run("/api/v1/gifts/verify", body);
      rows.push({ scenario: `${scenario} (${round})`, result, vsFloor: result.rps / floor.rps });
    }
  }
  // Requests cut off when a run stopped may still commit: the token goes first, then, once nothing
  // runs, the intents it made (the rollup follows the delete).
  await pool.query("UPDATE api_tokens SET revoked_at = now() WHERE id = $1", [token.id]);
  await waitForIdle(pool);
  await pool.query("DELETE FROM intents WHERE token_id = $1", [token.id]);
  await pool.query("DELETE FROM api_tokens WHERE id = $1", [token.id]);
  return rows;
}

/** Until no other query of this database has run for two checks in a row (at most 2 minutes). */
async function waitForIdle(pool: pg.Pool): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (let quiet = 0; quiet < 2 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const { rows } = await pool.query<{ busy: number }>(
      `SELECT count(*)::int AS busy FROM pg_stat_activity
       WHERE datname = current_database() AND backend_type = 'client backend' AND state <> 'idle' AND pid <> pg_backend_pid()`,
    );
    quiet = rows[0]?.busy ? 0 : quiet + 1;
  }
}

export function printWriteCost(cost: WriteCost): void {
  console.log("\nOne INSERT of an attributed intent (in-process, autocommit):");
  for (const c of cost.inserts) {
    console.log(`  rollup trigger ${c.trigger.padEnd(3)}  ${c.inserts} inserts  p50 ${ms(c.p50)} ms  mean ${ms(c.mean)} ms`);
  }
  console.log(
    `  the trigger itself (EXPLAIN ANALYZE, ${cost.trigger.inserts} inserts rolled back): p50 ${ms(cost.trigger.triggerP50)} ms ` +
      `of an INSERT's ${ms(cost.trigger.insertP50)} ms`,
  );
  console.log("\nPOST /gifts/verify:");
  for (const r of cost.http) {
    const failed = r.result.non2xx + r.result.errors;
    console.log(
      `  ${r.scenario.padEnd(34)} ${r.result.rps.toFixed(0).padStart(6)} rps  p50 ${ms(r.result.p50).padStart(6)}  p99 ${ms(r.result.p99).padStart(6)} ms` +
        `  ${r.vsFloor.toFixed(2)}x floor${failed ? `  (${failed} failed)` : ""}`,
    );
  }
}
