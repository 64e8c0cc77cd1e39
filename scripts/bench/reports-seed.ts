// The orders behind the back office's reports, for their benchmark (scripts/bench/reports.ts): N intents
// spread over the last D days as a running store makes them, written set-based in one transaction.
import fs from "node:fs";
import type pg from "pg";
import { createDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { API_SCOPES } from "@/lib/schemas/tokens";
import { CLI_ACTOR } from "@/lib/services/audit";
import { makePartner } from "@/lib/services/partners";
import { createApiToken, ensureUser, STOREFRONT_GUEST_EMAIL } from "@/lib/services/tokens";

export const DEFAULT_REPORT_INTENTS = 1_000_000;
export const DEFAULT_REPORT_DAYS = 180;
/** Bumped whenever what the seed writes changes, so an older seed is not reused. */
const SEED_VERSION = 1;
const MARKER_PREFIX = "bench reports seed";

export interface ReportsSeedOptions {
  /** Intents to write; the default is 1,000,000. */
  intents?: number;
  /** Days they spread over, ending now; the default is 180. */
  days?: number;
  /** Seed again even when the database already holds this seed. */
  fresh?: boolean;
  log?: (line: string) => void;
}

export interface ReportsSeed {
  intents: number;
  days: number;
  /** The store day (Moscow, 'YYYY-MM-DD') the seed ends on: the periods the benchmark asks for end here. */
  lastDay: string;
  /** True when the database already held this seed and nothing was written. */
  reused: boolean;
  /** Time the load took (null when reused): writing, then the statistics. */
  seconds: number | null;
  analyzeSeconds: number | null;
  /**
   * Processor time the loading server process spent, when PostgreSQL runs on this machine (null
   * otherwise): the load is CPU-bound, so on a busy machine this, not `seconds`, is its cost.
   */
  cpuSeconds: number | null;
}

/** Partners with their API tokens (one has two), and the storefront's guest tokens, which make most orders. */
const PARTNERS = [
  { email: "partner-games@reports-bench.example", tokens: 2 },
  { email: "partner-market@reports-bench.example", tokens: 1 },
  { email: "partner-bot@reports-bench.example", tokens: 1 },
  { email: "partner-blog@reports-bench.example", tokens: 1 },
];
const STOREFRONT_TOKENS = 3;

/**
 * Where attributed orders come from, with their share of them. A campaign named by `period` gets a
 * new name each month or ISO week (a monthly sale, a weekly newsletter); `pick` one of that many
 * numbered names (streamers); otherwise the name is fixed or absent.
 */
const CAMPAIGNS: { source: string; medium: string; campaign: string | null; period?: "month" | "week"; pick?: number; weight: number }[] = [
  { source: "vk", medium: "cpc", campaign: "sale", period: "month", weight: 18 },
  { source: "vk", medium: "social", campaign: "community", weight: 6 },
  { source: "telegram", medium: "social", campaign: "launch", period: "month", weight: 12 },
  { source: "telegram", medium: "cpc", campaign: "channel-ads", weight: 6 },
  { source: "yandex", medium: "cpc", campaign: "brand", weight: 12 },
  { source: "yandex", medium: "cpc", campaign: "generic", weight: 8 },
  { source: "google", medium: "cpc", campaign: "brand", weight: 5 },
  { source: "google", medium: "organic", campaign: null, weight: 4 },
  { source: "newsletter", medium: "email", campaign: "weekly", period: "week", weight: 10 },
  { source: "youtube", medium: "video", campaign: "review", period: "month", weight: 6 },
  { source: "twitch", medium: "stream", campaign: "streamer", pick: 12, weight: 6 },
  { source: "partner_blog", medium: "referral", campaign: null, weight: 3 },
  { source: "dzen", medium: "article", campaign: "guide", weight: 2 },
  { source: "tiktok", medium: "social", campaign: "shorts", weight: 2 },
];

export function reportsSeedMarker(intents: number, days: number): string {
  return `${MARKER_PREFIX} v${SEED_VERSION}: ${intents} intents over ${days} days`;
}

/**
 * Fills the database (migrated, with the demo catalog: lib/demo/seed.ts) with `intents` orders over
 * the last `days` days, unless it already holds exactly that seed: the marker is the comment on the
 * intents table (the database's own comment is scripts/bench.ts's marker of its catalog seed), written
 * last, so an interrupted load is never taken for a finished one. Seeding again first empties the
 * intents (and everything hanging off them) and the campaign visits: this is for benchmark databases.
 *
 * Every row goes through the database's constraints and the guard triggers. Two AFTER INSERT
 * triggers only write derived rows, and are switched off inside the load's transaction (no other
 * session ever sees them off): the timeline entry an insert would get (it would say "paid now" of a
 * paid order from March), written here instead with each move at its own time; and the campaign
 * rollup, rebuilt from the intents at the end by the same function its migration uses. The promo
 * codes' use counts are moved by what the load added, as creating each order would have.
 */
export async function seedReports(pool: pg.Pool, options: ReportsSeedOptions = {}): Promise<ReportsSeed> {
  const intents = options.intents ?? DEFAULT_REPORT_INTENTS;
  const days = options.days ?? DEFAULT_REPORT_DAYS;
  const log = options.log ?? ((line: string) => console.log(line));
  const marker = reportsSeedMarker(intents, days);
  const current = await pool.query<{ comment: string | null; last_day: string | null }>(
    `SELECT obj_description('intents'::regclass, 'pg_class') AS comment,
       to_char((max(created_at) AT TIME ZONE 'Europe/Moscow')::date, 'YYYY-MM-DD') AS last_day FROM intents`,
  );
  const found = current.rows[0];
  if (!options.fresh && found?.comment === marker && found.last_day) {
    log(`Reusing the ${intents}-intent reports seed (--fresh seeds it again).`);
    return { intents, days, lastDay: found.last_day, reused: true, seconds: null, analyzeSeconds: null, cpuSeconds: null };
  }

  const tokens = await seedTokens(pool);
  const started = performance.now();
  const client = await pool.connect();
  const backend = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const cpuBefore = processCpuSeconds(backend);
  let cpuSeconds: number | null = null;
  const step = async (title: string, text: string, values: unknown[] = []) => {
    const t = performance.now();
    const result = await client.query(text, values);
    log(`  ${title}: ${result.rowCount ?? 0} rows, ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return result;
  };
  try {
    log(`Seeding ${intents} intents over ${days} days...`);
    await client.query("BEGIN");
    // The load is one transaction: a crash leaves nothing half-written, so the fsync per commit buys nothing.
    await client.query("SET LOCAL synchronous_commit = off");
    await client.query("SET LOCAL work_mem = '1GB'");
    await client.query("SET LOCAL maintenance_work_mem = '512MB'");
    await clearIntents(client);
    await client.query("ALTER TABLE intents DISABLE TRIGGER intents_record_event_insert");
    const rollup = await hasCampaignRollup(client);
    if (rollup) await client.query("ALTER TABLE intents DISABLE TRIGGER intents_campaign_daily_insert");
    await client.query("SELECT setseed(0.2077)");
    await prepareChoices(client, tokens);
    await step("intents", INSERT_INTENTS, [intents, days, env.INTENT_TTL_SECONDS]);
    await step("timeline", INSERT_EVENTS);
    await step("deliveries", INSERT_DELIVERIES);
    await step("promo-code uses", UPDATE_PROMO_USES);
    await step("campaign visits", INSERT_VISITS);
    if (rollup) await step("campaign rollup", "SELECT campaign_daily_rebuild()");
    await client.query("ALTER TABLE intents ENABLE TRIGGER intents_record_event_insert");
    if (rollup) await client.query("ALTER TABLE intents ENABLE TRIGGER intents_campaign_daily_insert");
    await client.query("COMMIT");
    const cpuAfter = processCpuSeconds(backend);
    cpuSeconds = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  const seconds = (performance.now() - started) / 1000;
  const analyzed = performance.now();
  // Fresh statistics and visibility map, as autovacuum would have them on a store that grew slowly.
  await pool.query("VACUUM (ANALYZE) intents, intent_events, deliveries, campaign_visits, promo_codes");
  if (await hasCampaignRollup(pool)) await pool.query("VACUUM (ANALYZE) campaign_daily");
  const analyzeSeconds = (performance.now() - analyzed) / 1000;
  await pool.query(`COMMENT ON TABLE intents IS '${marker}'`);
  const { rows } = await pool.query<{ last_day: string }>(
    `SELECT to_char((max(created_at) AT TIME ZONE 'Europe/Moscow')::date, 'YYYY-MM-DD') AS last_day FROM intents`,
  );
  const cpu = cpuSeconds === null ? "" : `; the server process used ${cpuSeconds.toFixed(0)} s of processor time`;
  log(`Seeded ${intents} intents in ${seconds.toFixed(1)} s (then VACUUM ANALYZE ${analyzeSeconds.toFixed(1)} s)${cpu}.`);
  return { intents, days, lastDay: rows[0]!.last_day, reused: false, seconds, analyzeSeconds, cpuSeconds };
}

/** User and system time of a process on this machine, from /proc; null when it is elsewhere (or not Linux). */
function processCpuSeconds(pid: number): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 per second).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

async function hasCampaignRollup(db: pg.Pool | pg.PoolClient): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>("SELECT to_regclass('campaign_daily') IS NOT NULL AS ok");
  return rows[0]?.ok ?? false;
}

interface SeedToken {
  id: string;
  storefront: boolean;
  weight: number;
}

/** The owners and tokens the orders are made with, made once through the token service and found again after. */
async function seedTokens(pool: pg.Pool): Promise<SeedToken[]> {
  const db = createDb(pool);
  const out: SeedToken[] = [];
  const tokensOf = async (userId: string, prefix: string, count: number, purpose: "api" | "storefront") => {
    const { rows } = await pool.query<{ id: string }>(
      "SELECT id FROM api_tokens WHERE user_id = $1 AND name LIKE $2 || '%' AND purpose = $3 ORDER BY name",
      [userId, prefix, purpose],
    );
    const ids = rows.map((r) => r.id);
    for (let n = ids.length; n < count; n++) {
      const scopes = purpose === "api" ? [...API_SCOPES] : (["catalog:read", "gifts:verify", "gear:create", "intents:read"] as const);
      ids.push((await createApiToken(db, { userId, name: `${prefix} ${n + 1}`, scopes: [...scopes], purpose })).id);
    }
    return ids.slice(0, count);
  };
  const guest = await ensureUser(db, STOREFRONT_GUEST_EMAIL);
  for (const id of await tokensOf(guest, "reports bench storefront", STOREFRONT_TOKENS, "storefront")) {
    out.push({ id, storefront: true, weight: 60 / STOREFRONT_TOKENS });
  }
  const partnerWeights = [16, 10, 8, 4];
  for (const [i, partner] of PARTNERS.entries()) {
    const userId = await ensureUser(db, partner.email, partner.email.split("@")[0]);
    await makePartner(db, CLI_ACTOR, partner.email);
    const ids = await tokensOf(userId, "reports bench", partner.tokens, "api");
    for (const id of ids) out.push({ id, storefront: false, weight: partnerWeights[i]! / ids.length });
  }
  return out;
}

/**
 * Everything the load made before goes, with what the promo codes counted for it: TRUNCATE would
 * not run the triggers that give a use back.
 */
async function clearIntents(client: pg.PoolClient): Promise<void> {
  await client.query(`
    UPDATE promo_codes p SET uses = p.uses - c.n
    FROM (SELECT promo_code_id, count(*)::int AS n FROM intents
          WHERE promo_code_id IS NOT NULL AND status IN ('requires_payment', 'paid', 'fulfilled') GROUP BY promo_code_id) c
    WHERE p.id = c.promo_code_id`);
  await client.query("TRUNCATE intents, campaign_visits CASCADE");
}

/** Lookup tables the load draws from: games by popularity, gear, tokens and campaigns by weight, promo codes. */
async function prepareChoices(client: pg.PoolClient, tokens: SeedToken[]): Promise<void> {
  await client.query(`
    CREATE TEMP TABLE seed_games ON COMMIT DROP AS
    SELECT row_number() OVER (ORDER BY g.sort_rank, g.app_id)::int AS n, g.app_id, p.package_id, p.price_final AS price
    FROM games g JOIN packages p ON p.app_id = g.app_id AND p.is_main
    WHERE NOT g.hidden AND g.sort_tier = 0 AND p.price_final IS NOT NULL
    ORDER BY g.sort_rank, g.app_id LIMIT 20000`);
  await client.query(`
    CREATE TEMP TABLE seed_gear ON COMMIT DROP AS
    SELECT row_number() OVER (ORDER BY id)::int AS n, id, platform_app_id, price, stock FROM gear_items`);
  const cumulative = (weights: number[]) => {
    const total = weights.reduce((a, b) => a + b, 0);
    let sum = 0;
    // width_bucket's thresholds: bucket k (1-based) holds draws in [t[k-1], t[k]).
    return weights.map((w) => {
      const lo = sum / total;
      sum += w;
      return lo;
    });
  };
  await client.query(
    `CREATE TEMP TABLE seed_tokens ON COMMIT DROP AS
     SELECT n::int, id::uuid, storefront FROM unnest($1::text[], $2::boolean[]) WITH ORDINALITY AS t(id, storefront, n)`,
    [tokens.map((t) => t.id), tokens.map((t) => t.storefront)],
  );
  await client.query(
    `CREATE TEMP TABLE seed_campaigns ON COMMIT DROP AS
     SELECT n::int, source, medium, campaign, period, pick::int
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) WITH ORDINALITY AS c(source, medium, campaign, period, pick, n)`,
    [
      CAMPAIGNS.map((c) => c.source),
      CAMPAIGNS.map((c) => c.medium),
      CAMPAIGNS.map((c) => c.campaign),
      CAMPAIGNS.map((c) => c.period ?? null),
      CAMPAIGNS.map((c) => c.pick ?? null),
    ],
  );
  await client.query(`CREATE TEMP TABLE seed_weights ON COMMIT DROP AS SELECT $1::float8[] AS tokens, $2::float8[] AS campaigns`, [
    cumulative(tokens.map((t) => t.weight)),
    cumulative(CAMPAIGNS.map((c) => c.weight)),
  ]);
  await client.query(`
    CREATE TEMP TABLE seed_promos ON COMMIT DROP AS
    SELECT (SELECT id FROM promo_codes WHERE code = 'WELCOME10') AS welcome,
           (SELECT id FROM promo_codes WHERE code = 'MINUS300') AS minus300,
           (SELECT id FROM promo_codes WHERE code = 'GEAR15') AS gear15,
           (SELECT id FROM promo_codes WHERE code = 'PORTAL50') AS portal50`);
}

// $1 intents, $2 days, $3 the intent TTL in seconds. Each order draws its moment (half of them evenly
// over the period, half more of them the more recent, as a growing store has), what it buys (popular
// games far more often), who made it, its buyer (repeat buyers), campaign, promo code and fate. Its
// fate follows the state machine's end states: paid within its TTL or expired (or canceled); a paid
// order delivered, then maybe refunded, or refunded when delivery failed; whatever would have
// happened after now has not yet (still unpaid, paid and waiting for delivery).
const INSERT_INTENTS = `
WITH draws AS (
  SELECT i,
    date_trunc('second', now()) - make_interval(secs => ($2::int * 86400)::float8
      * CASE WHEN random() < 0.5 THEN random() ELSE 1 - sqrt(random()) END) AS created_at,
    random() AS r_kind, random() AS r_item, random() AS r_token, random() AS r_buyer, random() AS r_friend,
    random() AS r_region, random() AS r_fee, random() AS r_promo, random() AS r_attr, random() AS r_campaign,
    random() AS r_state, random() AS r_outcome, random() AS r_pay, random() AS r_deliver, random() AS r_refund,
    random() AS r_misc
  FROM generate_series(1, $1::int) AS i
), shaped AS (
  SELECT d.*,
    CASE WHEN d.r_kind < 0.22 THEN 'gear' ELSE 'gift' END AS kind,
    1 + floor(power(d.r_item, 3) * (SELECT count(*) FROM seed_games))::int AS game_n,
    1 + floor(d.r_item * (SELECT count(*) FROM seed_gear))::int AS gear_n,
    width_bucket(d.r_token, (SELECT tokens FROM seed_weights)) AS token_n,
    width_bucket(d.r_campaign, (SELECT campaigns FROM seed_weights)) AS campaign_n,
    floor(power(d.r_buyer, 1.6) * 250000)::int AS buyer,
    1000000 + floor(d.r_friend * 6000000)::bigint AS friend,
    d.created_at + make_interval(secs => $3::int) AS expires_at
  FROM draws d
), bought AS (
  SELECT s.*, t.id AS token_id, t.storefront,
    CASE s.kind WHEN 'gift' THEN g.app_id ELSE r.platform_app_id END AS app_id,
    CASE s.kind WHEN 'gift' THEN g.price ELSE r.price END AS price,
    g.package_id, r.id AS gear_id,
    CASE WHEN s.r_attr >= 0.35 THEN NULL ELSE jsonb_strip_nulls(jsonb_build_object(
      'utm_source', c.source, 'utm_medium', c.medium,
      'utm_campaign', CASE c.period
        WHEN 'month' THEN c.campaign || '-' || to_char(s.created_at AT TIME ZONE 'Europe/Moscow', 'YYYY-MM')
        WHEN 'week' THEN c.campaign || '-' || to_char(s.created_at AT TIME ZONE 'Europe/Moscow', 'IYYY-"w"IW')
        ELSE CASE WHEN c.pick IS NULL THEN c.campaign ELSE c.campaign || '-' || (1 + floor(s.r_misc * c.pick))::int END END,
      'utm_content', CASE WHEN s.r_misc < 0.3 THEN 'banner-' || (1 + floor(s.r_misc * 10))::int END)) END AS attribution,
    -- Past its TTL an order was paid (62 %), canceled (7 %) or left to expire; within it, the rest are
    -- still open (a reservation of an item short of stock is canceled instead: the stock guard counts them).
    CASE
      WHEN s.r_state < 0.62 AND s.created_at + make_interval(secs => 30 + s.r_pay * ($3::int - 60)) <= now() THEN 'paid'
      WHEN s.expires_at > now() AND (s.kind = 'gift' OR r.stock >= 20) THEN 'open'
      WHEN s.r_state < 0.69 THEN 'canceled'
      ELSE 'expired' END AS fate
  FROM shaped s
  JOIN seed_tokens t ON t.n = s.token_n
  LEFT JOIN seed_games g ON s.kind = 'gift' AND g.n = s.game_n
  LEFT JOIN seed_gear r ON s.kind = 'gear' AND r.n = s.gear_n
  LEFT JOIN seed_campaigns c ON c.n = s.campaign_n
), priced AS (
  SELECT b.*,
    CASE WHEN b.r_promo >= 0.08 THEN NULL
      WHEN b.kind = 'gear' THEN CASE WHEN b.r_promo < 0.05 THEN p.gear15 ELSE p.welcome END
      WHEN b.app_id = 620 THEN p.portal50
      WHEN b.price > 60000 AND b.r_promo < 0.03 THEN p.minus300
      ELSE p.welcome END AS promo_code_id,
    CASE WHEN b.kind = 'gear' THEN 'excluded' WHEN b.r_fee < 0.6 THEN 'included' WHEN b.r_fee < 0.95 THEN 'excluded' ELSE 'naive' END AS fee_mode,
    b.created_at + make_interval(secs => 30 + b.r_pay * ($3::int - 60)) AS paid_at
  FROM bought b CROSS JOIN seed_promos p
), amounts AS (
  SELECT q.*,
    CASE WHEN q.promo_code_id IS NULL THEN 0
      WHEN q.promo_code_id = (SELECT minus300 FROM seed_promos) THEN 30000
      WHEN q.promo_code_id = (SELECT portal50 FROM seed_promos) THEN q.price * 50 / 100
      WHEN q.promo_code_id = (SELECT gear15 FROM seed_promos) THEN q.price * 15 / 100
      ELSE q.price * 10 / 100 END AS discount
  FROM priced q
), timed AS (
  SELECT a.*,
    -- Delivered minutes to hours after payment (4 % never: it failed); refunds come after either.
    CASE WHEN a.fate = 'paid' AND a.r_outcome >= 0.04 THEN a.paid_at + make_interval(secs => 60 + power(a.r_deliver, 3) * 36000) END AS delivered_at,
    CASE WHEN a.fate <> 'paid' THEN NULL
      WHEN a.r_outcome < 0.04 THEN a.paid_at + make_interval(secs => 600 + a.r_refund * 172800)
      WHEN a.r_outcome < 0.07 THEN a.paid_at + make_interval(secs => 3600 + a.r_refund * 864000) END AS refund_at
  FROM amounts a
)
INSERT INTO intents (kind, status, token_id, app_id, package_id, gear_item_id, gift_region, invite_url, recipient_steam_id,
  account, trade_link, email, fee_mode, promo_code_id, intent_amount, discount_amount, fee_amount, payment_amount,
  attribution, success_url, callback_url, created_at, expires_at, paid_at, fulfilled_at, canceled_at, expired_at,
  payment_provider, provider_payment_id, refunded_at, refund_reason, refund_note, provider_refund_id, client_key, locale)
SELECT x.kind, x.status, x.token_id, x.app_id, x.package_id, x.gear_id,
  CASE WHEN x.kind = 'gift' THEN CASE WHEN x.r_region < 0.7 THEN 'RU' ELSE (ARRAY['KZ', 'BY', 'AM', 'GE', 'UZ', 'KG', 'TR'])[1 + floor(x.r_region * 7)::int] END END,
  CASE WHEN x.kind = 'gift' THEN 'https://s.team/p/' || left(x.code, 4) || '-' || substr(x.code, 5) || '/' || upper(left(md5(x.i::text), 8)) END,
  CASE WHEN x.kind = 'gift' THEN (76561197960265728 + x.friend)::text END,
  CASE WHEN x.kind = 'gear' THEN (76561197960265728 + x.friend)::text END,
  CASE WHEN x.kind = 'gear' AND x.r_misc < 0.7 THEN 'https://steamcommunity.com/tradeoffer/new/?partner=' || x.friend || '&token=' || left(md5(x.friend::text), 8) END,
  'buyer' || x.buyer || '@' || (ARRAY['mail.ru', 'yandex.ru', 'gmail.com', 'bk.ru', 'inbox.ru', 'example.com'])[1 + x.buyer % 6],
  x.fee_mode, x.promo_code_id, x.price, x.discount, x.fee,
  CASE WHEN x.fee_mode = 'included' THEN x.price - x.discount ELSE x.price - x.discount + x.fee END,
  x.attribution,
  CASE WHEN NOT x.storefront THEN 'https://partner.example/return' END,
  CASE WHEN NOT x.storefront AND x.r_misc < 0.5 THEN 'https://partner.example/hooks/giftkey' END,
  x.created_at, x.expires_at,
  CASE WHEN x.status IN ('paid', 'fulfilled', 'refunded') THEN x.paid_at END,
  CASE WHEN x.status IN ('fulfilled', 'refunded') AND x.delivered_at <= now() AND (x.refund_at IS NULL OR x.delivered_at < x.refund_at) THEN x.delivered_at END,
  CASE WHEN x.status = 'canceled' THEN least(now(), x.created_at + make_interval(secs => 20 + x.r_pay * ($3::int - 60))) END,
  CASE WHEN x.status = 'expired' THEN x.expires_at END,
  CASE WHEN x.status IN ('paid', 'fulfilled', 'refunded') THEN 'sandbox' END,
  CASE WHEN x.status IN ('paid', 'fulfilled', 'refunded') THEN 'sbx_' || left(md5('pay' || x.i), 24) END,
  CASE WHEN x.status = 'refunded' THEN x.refund_at END,
  CASE WHEN x.status <> 'refunded' THEN NULL WHEN x.r_outcome < 0.04 THEN 'delivery_failed' WHEN x.r_refund < 0.7 THEN 'operator' ELSE 'partner' END,
  CASE WHEN x.status = 'refunded' AND x.r_outcome >= 0.04 AND x.r_refund < 0.7 THEN 'the buyer changed their mind' END,
  CASE WHEN x.status = 'refunded' THEN 'sbx_re_' || left(md5('refund' || x.i), 20) END,
  CASE WHEN x.storefront THEN 'ck_' || left(md5('client' || x.buyer), 32) END,
  CASE WHEN x.r_misc < 0.85 THEN 'ru' ELSE 'en' END
FROM (
  SELECT t.*,
    translate(to_hex(t.friend), '0123456789abcdef', 'bcdfghjkmnpqrtvw') AS code,
    CASE t.fee_mode
      WHEN 'excluded' THEN round((t.price - t.discount) * 0.05)::int
      WHEN 'included' THEN round((t.price - t.discount) * 0.05 / 1.05)::int
      ELSE round(t.price * 0.05)::int END AS fee,
    CASE t.fate
      WHEN 'open' THEN 'requires_payment'
      WHEN 'canceled' THEN 'canceled'
      WHEN 'expired' THEN 'expired'
      ELSE CASE
        WHEN t.refund_at <= now() THEN 'refunded'
        WHEN t.delivered_at <= now() THEN 'fulfilled'
        ELSE 'paid' END END AS status
  FROM timed t
) x
ORDER BY x.created_at`;

// Each order's timeline as the triggers and services write it: its states at their moments, and its
// delivery's steps (queued at payment, accepted when delivered, failed when it failed or the money
// went back first).
const INSERT_EVENTS = `
INSERT INTO intent_events (intent_id, at, kind, value, reason, actor)
SELECT intent_id, at, kind, value, reason, actor FROM (
  SELECT id AS intent_id, created_at AS at, 1 AS seq, 'status' AS kind, 'requires_payment' AS value, 'created' AS reason, NULL AS actor FROM intents
  UNION ALL SELECT id, paid_at, 2, 'status', 'paid', NULL, NULL FROM intents WHERE paid_at IS NOT NULL
  UNION ALL SELECT id, paid_at, 3, 'delivery', 'queued', NULL, NULL FROM intents WHERE paid_at IS NOT NULL
  UNION ALL SELECT id, fulfilled_at, 4, 'delivery', 'accepted', NULL, 'sandbox' FROM intents WHERE fulfilled_at IS NOT NULL
  UNION ALL SELECT id, fulfilled_at, 5, 'status', 'fulfilled', 'delivered', 'sandbox' FROM intents WHERE fulfilled_at IS NOT NULL
  UNION ALL SELECT id, canceled_at, 6, 'status', 'canceled', NULL, NULL FROM intents WHERE canceled_at IS NOT NULL
  UNION ALL SELECT id, expired_at, 7, 'status', 'expired', 'not paid in time', NULL FROM intents WHERE expired_at IS NOT NULL
  UNION ALL SELECT id, refunded_at, 8, 'delivery', 'failed',
      CASE WHEN refund_reason = 'delivery_failed' THEN 'friend_request_declined' ELSE 'refunded_before_delivery' END, NULL
    FROM intents WHERE refunded_at IS NOT NULL AND fulfilled_at IS NULL
  UNION ALL SELECT id, refunded_at, 9, 'status', 'refunded', coalesce(refund_reason || ': ' || refund_note, refund_reason),
      CASE refund_reason WHEN 'operator' THEN 'operator@reports-bench.example' WHEN 'partner' THEN 'token reports bench 1' ELSE 'sandbox' END
    FROM intents WHERE refunded_at IS NOT NULL
) e
-- Each order's entries together, in the order they happened (its timeline is read by id): the index
-- on (intent_id, id) and the foreign key's lookups then go in key order instead of at random.
ORDER BY intent_id, at, seq`;

// A delivery for every paid order, made at payment: delivered, failed (when the money went back
// before it arrived), or still under way for the recently paid.
const INSERT_DELIVERIES = `
INSERT INTO deliveries (intent_id, provider, status, step, failure_reason, attempt_count, next_attempt_at, created_at, updated_at, finished_at)
SELECT id, provider,
  CASE WHEN fulfilled_at IS NOT NULL THEN 'delivered' WHEN refunded_at IS NOT NULL THEN 'failed'
    WHEN provider = 'manual' THEN 'pending' WHEN get_byte(uuid_send(id), 1) < 64 THEN 'retrying' ELSE 'pending' END,
  CASE WHEN fulfilled_at IS NOT NULL THEN 'accepted' WHEN refunded_at IS NOT NULL OR provider = 'manual' THEN 'queued'
    WHEN kind = 'gear' THEN 'trade_offer_sent' ELSE 'friend_request_sent' END,
  CASE WHEN fulfilled_at IS NULL AND refunded_at IS NOT NULL THEN
    CASE WHEN refund_reason = 'delivery_failed' THEN 'friend_request_declined' ELSE 'refunded_before_delivery' END END,
  CASE WHEN fulfilled_at IS NOT NULL OR refund_reason = 'delivery_failed' THEN 1 + get_byte(uuid_send(id), 2) % 3 ELSE 0 END,
  coalesce(fulfilled_at, refunded_at, paid_at + interval '5 minutes'),
  paid_at, coalesce(fulfilled_at, refunded_at, paid_at), coalesce(fulfilled_at, refunded_at)
FROM (SELECT i.*, CASE WHEN get_byte(uuid_send(i.id), 0) < 77 THEN 'manual' ELSE 'sandbox' END AS provider
      FROM intents i WHERE paid_at IS NOT NULL) p
ORDER BY id`;

// Each order took its code's use when it was made and gave it back when it ended unpaid or refunded.
const UPDATE_PROMO_USES = `
UPDATE promo_codes p SET uses = p.uses + c.n
FROM (SELECT promo_code_id, count(*)::int AS n FROM intents
      WHERE promo_code_id IS NOT NULL AND status IN ('requires_payment', 'paid', 'fulfilled') GROUP BY promo_code_id) c
WHERE p.id = c.promo_code_id`;

// Visits by campaign links, per day: every campaign that sold something had 6 to 25 visits per
// order that day, and some days' links brought visitors who bought nothing.
const INSERT_VISITS = `
INSERT INTO campaign_visits (day, source, medium, campaign, visits)
SELECT day, source, medium, campaign, (n * (6 + 19 * random()) + 40 * random())::int
FROM (
  SELECT (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, coalesce(attribution ->> 'utm_source', '') AS source,
    coalesce(attribution ->> 'utm_medium', '') AS medium, coalesce(attribution ->> 'utm_campaign', '') AS campaign, count(*) AS n
  FROM intents WHERE attribution IS NOT NULL GROUP BY 1, 2, 3, 4
) v`;
