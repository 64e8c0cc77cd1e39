import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { csvRow } from "@/lib/csv";
import type { DbExecutor } from "@/lib/db/client";
import type { CampaignSort } from "@/lib/schemas/campaigns";

// The campaign report: per source / medium / campaign, what a period brought. Every figure counts an
// event on the (Moscow) day it happened, so a closed period's figures never change afterwards:
// - visits: page loads by a UTM link (campaign_visits); a day's visits of campaigns beyond its
//   CAMPAIGNS_PER_DAY are one row of "other campaigns" (OTHER_CAMPAIGNS), a row of its own here;
// - intents: attributed intents created in the period;
// - paid: attributed intents paid in the period, whatever became of them since; `gross` is their
//   payment_amount;
// - refunds: attributed intents refunded in the period (of a payment made then or earlier), with
//   the amount returned; net revenue = gross - refunded.
// An intent's campaign is its attribution's utm_source / utm_medium / utm_campaign ('' when absent),
// the same names a visit is counted under.
// The intents' figures are read from their daily rollup (campaign_daily), which triggers on intents keep
// in the writing transaction (drizzle/0021), on the same store day (STORE_TIME_ZONE, Europe/Moscow).

export interface CampaignFigures {
  visits: number;
  intents: number;
  paid: number;
  /** Kopecks. */
  gross: number;
  refunds: number;
  refunded: number;
  net: number;
}

export interface CampaignRow extends CampaignFigures {
  source: string;
  medium: string;
  campaign: string;
  /** The visits of campaigns beyond a day's CAMPAIGNS_PER_DAY, counted together (their names are not kept). */
  other: boolean;
}

export interface DayRow extends CampaignFigures {
  /** 'YYYY-MM-DD'. */
  day: string;
}

export interface CampaignFilter {
  /** Inclusive store days, 'YYYY-MM-DD'. */
  from: string;
  to: string;
  source?: string;
  medium?: string;
  campaign?: string;
}

export interface CampaignReport {
  rows: CampaignRow[];
  /** Campaigns in the period (all pages). */
  total: number;
  totals: CampaignFigures;
  days: DayRow[];
}

const ORDER: Record<CampaignSort, SQL> = {
  revenue: sql`net DESC, paid DESC, visits DESC`,
  visits: sql`visits DESC, intents DESC, net DESC`,
  intents: sql`intents DESC, visits DESC, net DESC`,
  paid: sql`paid DESC, net DESC, visits DESC`,
};

/**
 * Every counted figure of the period, per day and campaign: the visits, and the intents' figures
 * from their daily rollup (campaign_daily, kept by the intents' triggers: drizzle/0021), which holds
 * exactly what grouping the attributed intents by the day of each event gives.
 */
function events(filter: CampaignFilter): SQL {
  const only: SQL[] = [sql`day BETWEEN ${filter.from}::date AND ${filter.to}::date`];
  if (filter.source !== undefined) only.push(sql`source = ${filter.source}`);
  if (filter.medium !== undefined) only.push(sql`medium = ${filter.medium}`);
  if (filter.campaign !== undefined) only.push(sql`campaign = ${filter.campaign}`);
  const where = sql.join(only, sql` AND `);
  // The visits' row of other campaigns has the key no visit has; one campaign's view leaves it out.
  const otherKey = sql`(source, medium, campaign) = ('', '', '')`;
  const oneCampaign = filter.source !== undefined || filter.medium !== undefined || filter.campaign !== undefined;
  return sql`
    SELECT day, source, medium, campaign, ${otherKey} AS other, visits, 0 AS intents, 0 AS paid, 0::bigint AS gross, 0 AS refunds,
           0::bigint AS refunded
      FROM campaign_visits WHERE ${where}${oneCampaign ? sql` AND NOT ${otherKey}` : sql``}
    UNION ALL
    SELECT day, source, medium, campaign, false, 0, intents, paid, gross, refunds, refunded
      FROM campaign_daily WHERE ${where} AND (intents, paid, gross, refunds, refunded) <> (0, 0, 0, 0, 0)`;
}

const SUMS = sql`sum(visits)::int AS visits, sum(intents)::int AS intents, sum(paid)::int AS paid, sum(gross)::bigint AS gross,
  sum(refunds)::int AS refunds, sum(refunded)::bigint AS refunded`;

type Raw = Record<"visits" | "intents" | "paid" | "gross" | "refunds" | "refunded", number | string | null>;

function figures(raw: Raw): CampaignFigures {
  const n = (v: number | string | null) => Number(v ?? 0);
  const gross = n(raw.gross);
  const refunded = n(raw.refunded);
  return {
    visits: n(raw.visits),
    intents: n(raw.intents),
    paid: n(raw.paid),
    gross,
    refunds: n(raw.refunds),
    refunded,
    net: gross - refunded,
  };
}

/** Campaigns of the period, `limit` at a time, sorted in the database. */
export async function listCampaignRows(
  db: DbExecutor,
  filter: CampaignFilter,
  options: { sort: CampaignSort; limit: number; offset: number },
): Promise<{ rows: CampaignRow[]; total: number }> {
  const { rows } = await db.execute<Raw & { source: string; medium: string; campaign: string; other: boolean; total: number }>(sql`
    SELECT source, medium, campaign, other, ${SUMS}, (sum(gross) - sum(refunded))::bigint AS net, count(*) OVER ()::int AS total
    FROM (${events(filter)}) e
    GROUP BY source, medium, campaign, other
    ORDER BY ${ORDER[options.sort]}, other, source, medium, campaign
    LIMIT ${options.limit} OFFSET ${options.offset}`);
  return {
    rows: rows.map((r) => ({ source: r.source, medium: r.medium, campaign: r.campaign, other: r.other, ...figures(r) })),
    total: rows[0] ? Number(rows[0].total) : 0,
  };
}

/** The period's figures day by day, every day present (zeros included), oldest first. */
export async function campaignDays(db: DbExecutor, filter: CampaignFilter): Promise<DayRow[]> {
  const { rows } = await db.execute<Raw & { day: string }>(sql`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day, ${SUMS}
    FROM generate_series(${filter.from}::date, ${filter.to}::date, interval '1 day') AS d(day)
    LEFT JOIN (${events(filter)}) e ON e.day = d.day::date
    GROUP BY d.day ORDER BY d.day`);
  return rows.map((r) => ({ day: r.day, ...figures(r) }));
}

/** The report's page: one page of campaigns, the period's totals and its days. */
export async function campaignReport(
  db: DbExecutor,
  filter: CampaignFilter,
  options: { sort: CampaignSort; limit: number; offset: number },
): Promise<CampaignReport> {
  const [page, days] = await Promise.all([listCampaignRows(db, filter, options), campaignDays(db, filter)]);
  const totals = days.reduce<CampaignFigures>(
    (sum, d) => ({
      visits: sum.visits + d.visits,
      intents: sum.intents + d.intents,
      paid: sum.paid + d.paid,
      gross: sum.gross + d.gross,
      refunds: sum.refunds + d.refunds,
      refunded: sum.refunded + d.refunded,
      net: sum.net + d.net,
    }),
    { visits: 0, intents: 0, paid: 0, gross: 0, refunds: 0, refunded: 0, net: 0 },
  );
  return { ...page, totals, days };
}

/** Share of `part` in `whole` (paid / visits, intents / visits), or null with no visits to divide by. */
export function conversion(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

/** Campaigns in one export at most; far beyond any real period's count. */
export const CSV_ROW_LIMIT = 10_000;

const CSV_HEADER = [
  "source",
  "medium",
  "campaign",
  "visits",
  "intents",
  "paid_orders",
  "intent_conversion_percent",
  "paid_conversion_percent",
  "paid_rub",
  "refunds",
  "refunded_rub",
  "net_revenue_rub",
  // 1 on the row of the campaigns beyond a day's CAMPAIGNS_PER_DAY, whose names are not kept.
  "other_campaigns",
];

const rub = (kopecks: number) => (kopecks / 100).toFixed(2);
const percent = (share: number | null) => (share === null ? "" : (share * 100).toFixed(2));

/** The report's campaigns as CSV, for a spreadsheet: plain numbers, rubles with a dot, every campaign of the period. */
export async function campaignReportCsv(db: DbExecutor, filter: CampaignFilter, sort: CampaignSort): Promise<string> {
  const { rows } = await listCampaignRows(db, filter, { sort, limit: CSV_ROW_LIMIT, offset: 0 });
  let csv = csvRow(CSV_HEADER);
  for (const r of rows) {
    csv += csvRow([
      r.source,
      r.medium,
      r.campaign,
      r.visits,
      r.intents,
      r.paid,
      percent(conversion(r.intents, r.visits)),
      percent(conversion(r.paid, r.visits)),
      rub(r.gross),
      r.refunds,
      rub(r.refunded),
      rub(r.net),
      r.other ? 1 : 0,
    ]);
  }
  return csv;
}
