import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/demo/generate";
import type { Attribution } from "@/lib/schemas/common";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { campaignDays, listCampaignRows } from "@/lib/services/campaign-report";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { cancelIntent, fulfilIntent, payIntent } from "@/lib/services/intent-lifecycle";
import { refundIntent } from "@/lib/services/refunds";
import { createApiToken, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerAccount } from "@/tests/support/partners";

// The campaign report reads a daily rollup (campaign_daily) that triggers on intents keep in the
// writing transaction (drizzle/0023). Here orders are made, paid, delivered, refunded, canceled,
// moved in time, re-attributed and deleted through the services and by hand, some at once, and after
// each round the rollup, and the report read from it, must equal what grouping the intents directly
// gives: the report's definition before the rollup existed.

const ORIGIN = "https://store.test";
const CAMPAIGNS: (Attribution | undefined)[] = [
  { utm_source: "vk", utm_medium: "cpc", utm_campaign: "spring" },
  { utm_source: "vk", utm_medium: "cpc", utm_campaign: "autumn", utm_content: "banner" },
  { utm_source: "newsletter", utm_medium: "email" },
  { utm_source: "tg" },
  undefined,
];
/** Moscow days the orders are moved to, a period that crosses a month. */
const DAYS = ["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02", "2026-03-03"];
const PERIOD = { from: DAYS[0]!, to: DAYS.at(-1)! };

let t: TestDatabase;
let owner: AuthToken;
const random = mulberry32(20261126);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

async function gift(attribution: Attribution | undefined): Promise<string> {
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
    email: "rollup@example.com",
    fee: pick(["excluded", "included"]),
    ...(attribution ? { attribution } : {}),
  });
  return (await verifyGift(t.db, owner, body, ORIGIN)).intentId;
}

async function gear(attribution: Attribution | undefined): Promise<string> {
  const body = gearIntentRequestSchema.parse({
    account: "76561198000000042",
    platform: "730",
    item: "rollup-crate",
    email: "rollup@example.com",
    ...(attribution ? { attribution } : {}),
  });
  return (await reserveGear(t.db, owner, body, ORIGIN)).intentId;
}

const pay = (id: string) => payIntent(t.db, id, { provider: "sandbox", providerPaymentId: `sbx_${id.slice(0, 8)}`, origin: ORIGIN });

/** An instant on one of DAYS in Moscow, at a random time of it. */
function momentOn(day: string): string {
  const seconds = Math.floor(random() * 86_400);
  return new Date(Date.parse(`${day}T00:00:00+03:00`) + seconds * 1000).toISOString();
}

/**
 * Moves an intent's times into the period, keeping their order, past the guard that fixes them once
 * set (the rollup's own trigger still sees the change, as it would an operator's psql).
 */
async function backdate(id: string): Promise<void> {
  const first = DAYS.indexOf(pick(DAYS.slice(0, 3)));
  const created = momentOn(DAYS[first]!);
  const paid = new Date(Date.parse(created) + 60_000).toISOString();
  const refunded = momentOn(DAYS[Math.min(DAYS.length - 1, first + 1 + Math.floor(random() * 2))]!);
  await t.db.transaction(async (tx) => {
    await tx.execute(sql`ALTER TABLE intents DISABLE TRIGGER intents_guard_transition`);
    await tx.execute(sql`UPDATE intents SET created_at = ${created}::timestamptz,
      paid_at = CASE WHEN paid_at IS NOT NULL THEN ${paid}::timestamptz END,
      refunded_at = CASE WHEN refunded_at IS NOT NULL THEN ${refunded}::timestamptz END
      WHERE id = ${id}`);
    await tx.execute(sql`ALTER TABLE intents ENABLE TRIGGER intents_guard_transition`);
  });
}

/** What the rollup must hold: the attributed intents grouped by the Moscow day of each event, straight from the intents. */
async function directDaily() {
  const { rows } = await t.db.execute(sql`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, source, medium, campaign, sum(intents)::int AS intents, sum(paid)::int AS paid,
      sum(gross)::bigint AS gross, sum(refunds)::int AS refunds, sum(refunded)::bigint AS refunded
    FROM (
      SELECT (at AT TIME ZONE 'Europe/Moscow')::date AS day, coalesce(attribution ->> 'utm_source', '') AS source,
        coalesce(attribution ->> 'utm_medium', '') AS medium, coalesce(attribution ->> 'utm_campaign', '') AS campaign,
        intents, paid, gross, refunds, refunded
      FROM (
        SELECT attribution, created_at AS at, 1 AS intents, 0 AS paid, 0 AS gross, 0 AS refunds, 0 AS refunded FROM intents
        UNION ALL SELECT attribution, paid_at, 0, 1, payment_amount, 0, 0 FROM intents WHERE paid_at IS NOT NULL
        UNION ALL SELECT attribution, refunded_at, 0, 0, 0, 1, payment_amount FROM intents WHERE refunded_at IS NOT NULL
      ) e WHERE attribution IS NOT NULL AND attribution <> '{}'::jsonb
    ) d
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`);
  return rows;
}

async function rollup() {
  const { rows } = await t.db.execute(sql`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, source, medium, campaign, intents, paid, gross, refunds, refunded
    FROM campaign_daily WHERE (intents, paid, gross, refunds, refunded) <> (0, 0, 0, 0, 0) ORDER BY 1, 2, 3, 4`);
  return rows;
}

/** The report's campaigns and days computed from the intents themselves, as the service did before the rollup. */
async function directReport(period: { from: string; to: string }) {
  const events = sql`
    SELECT day::date AS day, source, medium, campaign, visits, 0 AS intents, 0 AS paid, 0::bigint AS gross, 0 AS refunds, 0::bigint AS refunded
    FROM campaign_visits WHERE day BETWEEN ${period.from}::date AND ${period.to}::date
    UNION ALL
    SELECT day::date, source, medium, campaign, 0, intents, paid, gross, refunds, refunded
    FROM (${directDailySql()}) d WHERE day::date BETWEEN ${period.from}::date AND ${period.to}::date`;
  const campaigns = await t.db.execute(sql`
    SELECT source, medium, campaign, sum(visits)::int AS visits, sum(intents)::int AS intents, sum(paid)::int AS paid,
      sum(gross)::bigint AS gross, sum(refunds)::int AS refunds, sum(refunded)::bigint AS refunded
    FROM (${events}) e GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
  const days = await t.db.execute(sql`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(sum(visits), 0)::int AS visits, coalesce(sum(intents), 0)::int AS intents,
      coalesce(sum(paid), 0)::int AS paid, coalesce(sum(gross), 0)::bigint AS gross, coalesce(sum(refunds), 0)::int AS refunds,
      coalesce(sum(refunded), 0)::bigint AS refunded
    FROM generate_series(${period.from}::date, ${period.to}::date, interval '1 day') AS d(day)
    LEFT JOIN (${events}) e ON e.day = d.day::date GROUP BY d.day ORDER BY d.day`);
  const n = (v: unknown) => Number(v ?? 0);
  const figures = (r: Record<string, unknown>) => ({
    visits: n(r.visits),
    intents: n(r.intents),
    paid: n(r.paid),
    gross: n(r.gross),
    refunds: n(r.refunds),
    refunded: n(r.refunded),
    net: n(r.gross) - n(r.refunded),
  });
  return {
    campaigns: campaigns.rows.map((r) => ({
      source: String(r.source),
      medium: String(r.medium),
      campaign: String(r.campaign),
      // Every visit here names its campaign: none is in the row of other campaigns.
      other: false,
      ...figures(r),
    })),
    days: days.rows.map((r) => ({ day: r.day, ...figures(r) })),
  };
}

function directDailySql() {
  return sql`
    SELECT (at AT TIME ZONE 'Europe/Moscow')::date AS day, coalesce(attribution ->> 'utm_source', '') AS source,
      coalesce(attribution ->> 'utm_medium', '') AS medium, coalesce(attribution ->> 'utm_campaign', '') AS campaign,
      intents, paid, gross, refunds, refunded
    FROM (
      SELECT attribution, created_at AS at, 1 AS intents, 0 AS paid, 0::bigint AS gross, 0 AS refunds, 0::bigint AS refunded FROM intents
      UNION ALL SELECT attribution, paid_at, 0, 1, payment_amount, 0, 0 FROM intents WHERE paid_at IS NOT NULL
      UNION ALL SELECT attribution, refunded_at, 0, 0, 0, 1, payment_amount FROM intents WHERE refunded_at IS NOT NULL
    ) e WHERE attribution IS NOT NULL AND attribution <> '{}'::jsonb`;
}

/** The rollup equals the intents grouped directly, and so does the report the service reads from it. */
async function expectExact(): Promise<void> {
  expect(await rollup()).toEqual(await directDaily());
  const direct = await directReport(PERIOD);
  const { rows, total } = await listCampaignRows(t.db, PERIOD, { sort: "revenue", limit: 1000, offset: 0 });
  const byName = (a: { source: string; medium: string; campaign: string }, b: typeof a) =>
    a.source.localeCompare(b.source) || a.medium.localeCompare(b.medium) || a.campaign.localeCompare(b.campaign);
  expect([...rows].sort(byName)).toEqual([...direct.campaigns].sort(byName));
  expect(total).toBe(direct.campaigns.length);
  expect(await campaignDays(t.db, PERIOD)).toEqual(direct.days);
}

beforeAll(async () => {
  t = await createTestDatabase();
  const userId = await partnerAccount(t.db, "rollup@example.com");
  const created = await createApiToken(t.db, { userId, name: "rollup", scopes: ["gifts:verify", "gear:create"] });
  owner = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  await t.db.execute(
    sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'rollup-crate', 'Rollup Crate', 4900, 100000)`,
  );
  await t.db.execute(sql`INSERT INTO campaign_visits (day, source, medium, campaign, visits)
    VALUES ('2026-02-28', 'vk', 'cpc', 'spring', 40), ('2026-03-01', 'tg', '', '', 7), ('2026-03-02', 'radio', 'offline', 'jingle', 3)`);
});
afterAll(() => t?.close());

describe("the campaign rollup", () => {
  it("starts equal to the intents: the migration's rebuild", async () => {
    await expectExact();
  });

  it("stays exact through orders made, paid, delivered, refunded, canceled and moved in time, round after round", async () => {
    const made: { id: string; status: "requires_payment" | "paid" | "fulfilled" | "refunded" | "canceled" }[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 12; i++) {
        const attribution = pick(CAMPAIGNS);
        made.push({ id: random() < 0.7 ? await gift(attribution) : await gear(attribution), status: "requires_payment" });
      }
      for (const order of made) {
        const roll = random();
        if (order.status === "requires_payment" && roll < 0.6) {
          await pay(order.id);
          order.status = "paid";
        } else if (order.status === "requires_payment" && roll < 0.75) {
          await cancelIntent(t.db, order.id, ORIGIN);
          order.status = "canceled";
        } else if (order.status === "paid" && roll < 0.4) {
          await fulfilIntent(t.db, order.id, ORIGIN);
          order.status = "fulfilled";
        } else if ((order.status === "paid" || order.status === "fulfilled") && roll < 0.6) {
          await refundIntent(t.db, order.id, {
            by: { kind: "staff", actor: { userId: null, label: "ops@staff.example.com" } },
            note: "test",
            origin: ORIGIN,
          });
          order.status = "refunded";
        }
      }
      for (const order of made) if (random() < 0.5) await backdate(order.id);
      await expectExact();
    }
    expect(new Set(made.map((o) => o.status))).toEqual(new Set(["requires_payment", "paid", "fulfilled", "refunded", "canceled"]));
  });

  it("follows an attribution changed by hand, and an intent deleted", async () => {
    const id = await gift(CAMPAIGNS[0]);
    await pay(id);
    await backdate(id);
    await t.db.execute(sql`UPDATE intents SET attribution = ${JSON.stringify(CAMPAIGNS[2])}::jsonb WHERE id = ${id}`);
    await expectExact();
    await t.db.execute(sql`UPDATE intents SET attribution = NULL WHERE id = ${id}`);
    await expectExact();
    const other = await gift(CAMPAIGNS[1]);
    await pay(other);
    await backdate(other);
    await t.db.execute(sql`DELETE FROM intents WHERE id = ${other}`);
    await expectExact();
  });

  it("stays exact when many orders of one campaign are made and paid at once", async () => {
    const campaign = { utm_source: "flash", utm_medium: "push", utm_campaign: "sale" };
    const ids = await Promise.all(Array.from({ length: 24 }, () => gift(campaign)));
    await Promise.all(ids.map((id) => pay(id)));
    await Promise.all(
      ids.slice(0, 8).map((id) =>
        refundIntent(t.db, id, {
          by: { kind: "staff", actor: { userId: null, label: "ops@staff.example.com" } },
          note: "the buyer asked",
          origin: ORIGIN,
        }),
      ),
    );
    const { rows } = await t.db.execute<{ intents: number; paid: number; refunds: number }>(
      sql`SELECT sum(intents)::int AS intents, sum(paid)::int AS paid, sum(refunds)::int AS refunds FROM campaign_daily WHERE source = 'flash'`,
    );
    expect(rows[0]).toEqual({ intents: 24, paid: 24, refunds: 8 });
    await expectExact();
  });

  it("is computed again from scratch by campaign_daily_rebuild() to the same figures", async () => {
    const before = await rollup();
    await t.db.execute(sql`UPDATE campaign_daily SET intents = intents + 5`);
    await t.db.execute(sql`SELECT campaign_daily_rebuild()`);
    expect(await rollup()).toEqual(before);
    await expectExact();
  });
});
