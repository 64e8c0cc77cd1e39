import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferVisit, campaignVisitOf, type VisitBuffer } from "@/lib/campaigns/visits";
import type { Attribution } from "@/lib/schemas/common";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { campaignDays, campaignReport, campaignReportCsv, listCampaignRows } from "@/lib/services/campaign-report";
import { flushCampaignVisits, recordCampaignVisits } from "@/lib/services/campaign-visits";
import { buildCampaignLink } from "@/lib/services/campaign-links";
import { verifyGift } from "@/lib/services/gifts";
import { payIntent } from "@/lib/services/intent-lifecycle";
import { refundIntent } from "@/lib/services/refunds";
import { createApiToken, ensureUser, type AuthToken } from "@/lib/services/tokens";
import { linkBuilderSchema } from "@/lib/schemas/campaigns";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { until } from "@/tests/support/paid-intent";

// The campaign report against what really happened: visits counted from campaign links by the
// proxy's own function, intents created through the services with those links' attribution, paid and
// refunded through the services, then moved to chosen moments of three days in March (Moscow time)
// so every figure per campaign and per day is known exactly.

const ORIGIN = "https://store.test";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const PERIOD = { from: "2026-03-01", to: "2026-03-03" };
const VK: Attribution = { utm_source: "vk", utm_medium: "cpc", utm_campaign: "spring", utm_content: "banner" };
const NEWSLETTER: Attribution = { utm_source: "newsletter", utm_medium: "email" };

let t: TestDatabase;
let owner: AuthToken;
/** What one gift of Portal 2 to Russia costs the buyer, kopecks: every intent here is one. */
let P: number;

/** A page load of `url` at `at` (an ISO instant), counted as the proxy counts it. */
function visit(buffer: VisitBuffer, url: string, at: string, headers: Record<string, string> = {}): void {
  const parsed = new URL(url, ORIGIN);
  const key = campaignVisitOf(
    {
      method: "GET",
      pathname: parsed.pathname,
      searchParams: parsed.searchParams,
      headers: new Headers({ "user-agent": CHROME, ...headers }),
    },
    new Date(at),
  );
  if (key) bufferVisit(key, 1, buffer);
}

async function gift(attribution?: Attribution): Promise<string> {
  const created = await verifyGift(
    t.db,
    owner,
    giftVerifyRequestSchema.parse({
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: "buyer@example.com",
      fee: "excluded",
      ...(attribution ? { attribution } : {}),
    }),
    ORIGIN,
  );
  return created.intentId;
}

const pay = (id: string) => payIntent(t.db, id, { provider: "sandbox", providerPaymentId: `sbx_${id.slice(0, 8)}`, origin: ORIGIN });

/** Moves an intent's times to given instants: the state-times guard allows them to change only with the state. */
async function backdate(id: string, times: { created: string; paid?: string; refunded?: string }): Promise<void> {
  await t.db.transaction(async (tx) => {
    await tx.execute(sql`ALTER TABLE intents DISABLE TRIGGER intents_guard_transition`);
    await tx.execute(sql`UPDATE intents SET created_at = ${times.created}::timestamptz,
      paid_at = coalesce(${times.paid ?? null}::timestamptz, paid_at), refunded_at = coalesce(${times.refunded ?? null}::timestamptz, refunded_at)
      WHERE id = ${id}`);
    await tx.execute(sql`ALTER TABLE intents ENABLE TRIGGER intents_guard_transition`);
  });
}

beforeAll(async () => {
  t = await createTestDatabase();
  const userId = await ensureUser(t.db, "campaigns@example.com");
  const created = await createApiToken(t.db, { userId, name: "campaigns", scopes: ["gifts:verify"] });
  owner = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };

  // Visits. 1 March (Moscow): four by the vk link, one of them a reload, the first at midnight;
  // a link preview and a prefetch of it, and a visit a second before midnight on 28 February, do not count.
  const buffer: VisitBuffer = { counts: new Map(), dropped: 0 };
  const vk = "/games/620?utm_source=vk&utm_medium=cpc&utm_campaign=spring&utm_content=banner";
  visit(buffer, vk, "2026-02-28T20:59:59Z");
  visit(buffer, vk, "2026-02-28T21:00:00Z");
  visit(buffer, vk, "2026-03-01T09:00:00Z");
  visit(buffer, vk, "2026-03-01T09:00:05Z");
  visit(buffer, "/?utm_source=vk&utm_medium=cpc&utm_campaign=spring&utm_term=portal", "2026-03-01T12:00:00Z");
  visit(buffer, vk, "2026-03-01T12:00:00Z", { "user-agent": "TelegramBot (like TwitterBot)" });
  visit(buffer, vk, "2026-03-01T12:00:00Z", { "next-router-prefetch": "1" });
  await flushCampaignVisits(t.db, buffer);
  // 2 March: two more by vk (the last at 23:30 Moscow, still 2 March), one by the newsletter; written
  // by a second flush, which adds to the counts already there.
  visit(buffer, vk, "2026-03-02T10:00:00Z");
  visit(buffer, vk, "2026-03-02T20:30:00Z");
  visit(buffer, "/gear?utm_source=newsletter&utm_medium=email", "2026-03-02T08:00:00Z");
  // 3 March: two by a Telegram post, and one whose names a spreadsheet would run as formulas.
  visit(buffer, "/?utm_source=tg&utm_medium=social&utm_campaign=launch", "2026-03-03T10:00:00Z");
  visit(buffer, "/?utm_source=tg&utm_medium=social&utm_campaign=launch", "2026-03-03T11:00:00Z");
  visit(buffer, "/?utm_source=%3Devil&utm_medium=cpc&utm_campaign=%40sum(A1)", "2026-03-03T12:00:00Z");
  await flushCampaignVisits(t.db, buffer);

  // Intents. vk: a1 made and paid on 1 March; a2 made on 1 March, paid on 2 March, refunded on
  // 3 March; a3 made on 2 March, never paid; a4 made a second before the period, paid in its first
  // minute. Newsletter: b1 made on 2 March, paid on 3 March. And a paid intent with no campaign.
  const [a1, a2, a3, a4, b1, direct] = [
    await gift(VK),
    await gift(VK),
    await gift(VK),
    await gift(VK),
    await gift(NEWSLETTER),
    await gift(),
  ];
  for (const id of [a1, a2, a4, b1, direct]) await pay(id!);
  await refundIntent(t.db, a2!, {
    by: { kind: "staff", actor: { userId: null, label: "ops@staff.example.com" } },
    note: "the buyer asked",
    origin: ORIGIN,
  });
  await backdate(a1!, { created: "2026-03-01T10:00:00+03:00", paid: "2026-03-01T10:05:00+03:00" });
  await backdate(a2!, { created: "2026-03-01T11:00:00+03:00", paid: "2026-03-02T09:00:00+03:00", refunded: "2026-03-03T15:00:00+03:00" });
  await backdate(a3!, { created: "2026-03-02T12:00:00+03:00" });
  await backdate(a4!, { created: "2026-02-28T23:59:59+03:00", paid: "2026-03-01T00:00:30+03:00" });
  await backdate(b1!, { created: "2026-03-02T18:00:00+03:00", paid: "2026-03-03T09:00:00+03:00" });
  await backdate(direct!, { created: "2026-03-01T10:00:00+03:00", paid: "2026-03-01T10:01:00+03:00" });

  const { rows } = await t.db.execute<{ amounts: number[] }>(sql`SELECT array_agg(DISTINCT payment_amount) AS amounts FROM intents`);
  expect(rows[0]!.amounts).toHaveLength(1);
  P = rows[0]!.amounts[0]!;
  expect(P).toBeGreaterThan(0);
});

afterAll(() => t?.close());

const zero = { visits: 0, intents: 0, paid: 0, gross: 0, refunds: 0, refunded: 0, net: 0 };

describe("the campaign report", () => {
  it("counts per campaign: visits, intents, payments, refunds and revenue, best revenue first", async () => {
    const { rows, total } = await listCampaignRows(t.db, PERIOD, { sort: "revenue", limit: 25, offset: 0 });
    expect(total).toBe(4);
    expect(rows).toEqual([
      {
        source: "vk",
        medium: "cpc",
        campaign: "spring",
        other: false,
        visits: 6,
        intents: 3,
        paid: 3,
        gross: 3 * P,
        refunds: 1,
        refunded: P,
        net: 2 * P,
      },
      {
        source: "newsletter",
        medium: "email",
        campaign: "",
        other: false,
        visits: 1,
        intents: 1,
        paid: 1,
        gross: P,
        refunds: 0,
        refunded: 0,
        net: P,
      },
      { source: "tg", medium: "social", campaign: "launch", other: false, ...zero, visits: 2 },
      { source: "=evil", medium: "cpc", campaign: "@sum(A1)", other: false, ...zero, visits: 1 },
    ]);
  });

  it("counts per day, every day of the period, and totals them", async () => {
    const report = await campaignReport(t.db, PERIOD, { sort: "revenue", limit: 25, offset: 0 });
    expect(report.days).toEqual([
      { day: "2026-03-01", visits: 4, intents: 2, paid: 2, gross: 2 * P, refunds: 0, refunded: 0, net: 2 * P },
      { day: "2026-03-02", visits: 3, intents: 2, paid: 1, gross: P, refunds: 0, refunded: 0, net: P },
      { day: "2026-03-03", visits: 3, intents: 0, paid: 1, gross: P, refunds: 1, refunded: P, net: 0 },
    ]);
    expect(report.totals).toEqual({ visits: 10, intents: 4, paid: 4, gross: 4 * P, refunds: 1, refunded: P, net: 3 * P });
  });

  it("shows one campaign's days alone", async () => {
    const days = await campaignDays(t.db, { ...PERIOD, source: "newsletter", medium: "email", campaign: "" });
    expect(days).toEqual([
      { day: "2026-03-01", ...zero },
      { day: "2026-03-02", ...zero, visits: 1, intents: 1 },
      { day: "2026-03-03", ...zero, paid: 1, gross: P, net: P },
    ]);
  });

  it("counts an event on the day it happened: a period of 2 March alone", async () => {
    const { rows } = await listCampaignRows(t.db, { from: "2026-03-02", to: "2026-03-02" }, { sort: "revenue", limit: 25, offset: 0 });
    expect(rows).toEqual([
      {
        source: "vk",
        medium: "cpc",
        campaign: "spring",
        other: false,
        visits: 2,
        intents: 1,
        paid: 1,
        gross: P,
        refunds: 0,
        refunded: 0,
        net: P,
      },
      { source: "newsletter", medium: "email", campaign: "", other: false, ...zero, visits: 1, intents: 1 },
    ]);
  });

  it("sorts and pages in the database", async () => {
    const byVisits = await listCampaignRows(t.db, PERIOD, { sort: "visits", limit: 2, offset: 0 });
    expect(byVisits.total).toBe(4);
    expect(byVisits.rows.map((r) => r.source)).toEqual(["vk", "tg"]);
    const second = await listCampaignRows(t.db, PERIOD, { sort: "visits", limit: 2, offset: 2 });
    // One visit each: more intents first.
    expect(second.rows.map((r) => r.source)).toEqual(["newsletter", "=evil"]);
  });

  it("has nothing for a period without events", async () => {
    expect(await listCampaignRows(t.db, { from: "2025-01-01", to: "2025-01-31" }, { sort: "revenue", limit: 25, offset: 0 })).toEqual({
      rows: [],
      total: 0,
    });
  });

  it("exports CSV with conversions, rubles, and formula-looking names made harmless", async () => {
    const rub = (k: number) => (k / 100).toFixed(2);
    expect(await campaignReportCsv(t.db, PERIOD, "revenue")).toBe(
      [
        "source,medium,campaign,visits,intents,paid_orders,intent_conversion_percent,paid_conversion_percent,paid_rub,refunds,refunded_rub,net_revenue_rub,other_campaigns",
        `vk,cpc,spring,6,3,3,50.00,50.00,${rub(3 * P)},1,${rub(P)},${rub(2 * P)},0`,
        `newsletter,email,,1,1,1,100.00,100.00,${rub(P)},0,0.00,${rub(P)},0`,
        "tg,social,launch,2,0,0,0.00,0.00,0.00,0,0.00,0.00,0",
        "'=evil,cpc,'@sum(A1),1,0,0,0.00,0.00,0.00,0,0.00,0.00,0",
        "",
      ].join("\r\n"),
    );
  });
});

describe("a day's campaigns beyond CAMPAIGNS_PER_DAY", () => {
  const DAY = "2026-04-10";
  const PER_DAY = 50;
  const key = (source: string) => ({ day: DAY, source, medium: "cpc", campaign: "" });
  const dayRows = async () =>
    (
      await t.pool.query<{ source: string; medium: string; visits: number }>(
        "SELECT source, medium, visits FROM campaign_visits WHERE day = $1 ORDER BY source",
        [DAY],
      )
    ).rows;

  it("stop at the limit however many server processes flush at once, and count the rest in one row", async () => {
    // Six processes' flushes, each with 200 campaigns of its own and one all of them share, held at
    // the table until all six are there, then let go together.
    const flushes = Array.from({ length: 6 }, (_, p) => [
      { key: key("shared"), visits: 1 },
      ...Array.from({ length: 200 }, (_, i) => ({ key: key(`p${p}-c${i}`), visits: 1 + (i % 3) })),
    ]);
    const gate = await t.pool.connect();
    let done: Promise<unknown>;
    try {
      await gate.query("BEGIN");
      await gate.query("LOCK TABLE campaign_visits IN SHARE ROW EXCLUSIVE MODE");
      done = Promise.all(flushes.map((visits) => recordCampaignVisits(t.db, visits, { perDay: PER_DAY })));
      // Asked outside the gate's transaction, which would keep seeing its first view of the activity.
      await until(async () => {
        const { rows } = await t.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return rows[0]!.n >= flushes.length;
      });
      await gate.query("COMMIT");
    } finally {
      await gate.query("ROLLBACK").catch(() => {});
      gate.release();
    }
    await done!;
    const rows = await dayRows();
    expect(rows).toHaveLength(PER_DAY + 1);
    expect(rows.filter((r) => r.source === "" && r.medium === "")).toHaveLength(1);
    const sent = flushes.flat().reduce((sum, v) => sum + v.visits, 0);
    expect(rows.reduce((sum, r) => sum + r.visits, 0)).toBe(sent);
  });

  it("keep adding to a campaign the day already keeps, and send any new one to the other row", async () => {
    const before = await dayRows();
    const kept = before.find((r) => r.source !== "")!;
    const other = before.find((r) => r.source === "")!;
    await recordCampaignVisits(
      t.db,
      [
        { key: key(kept.source), visits: 5 },
        { key: key("late-comer"), visits: 7 },
      ],
      { perDay: PER_DAY },
    );
    const after = await dayRows();
    expect(after).toHaveLength(PER_DAY + 1);
    expect(after.find((r) => r.source === kept.source)!.visits).toBe(kept.visits + 5);
    expect(after.find((r) => r.source === "")!.visits).toBe(other.visits + 7);
  });

  it("are one row of the report, marked as such; one campaign's view leaves it out", async () => {
    const period = { from: DAY, to: DAY };
    const { rows, total } = await listCampaignRows(t.db, period, { sort: "visits", limit: 25, offset: 0 });
    expect(total).toBe(PER_DAY + 1);
    const others = rows.filter((r) => r.other);
    expect(others).toEqual([{ source: "", medium: "", campaign: "", other: true, ...zero, visits: expect.any(Number) }]);
    const all = await campaignReport(t.db, period, { sort: "visits", limit: 25, offset: 0 });
    expect(all.totals.visits).toBe((await dayRows()).reduce((sum, r) => sum + r.visits, 0));
    const empty = await campaignDays(t.db, { ...period, source: "", medium: "", campaign: "" });
    expect(empty).toEqual([{ day: DAY, ...zero }]);
    const csv = await campaignReportCsv(t.db, period, "visits");
    expect(csv.split("\r\n").filter((line) => line.endsWith(",1"))).toEqual([
      expect.stringMatching(/^,,,\d+,0,0,0\.00,0\.00,0\.00,0,0\.00,0\.00,1$/),
    ]);
  });
});

describe("the link builder", () => {
  const input = (extra: Record<string, string>) =>
    linkBuilderSchema.parse({ utm_source: "vk", utm_medium: "cpc", utm_campaign: "spring", ...extra });

  it("makes a game's link from its app id or its title", async () => {
    const expected = { ok: true, path: "/games/620", url: `${ORIGIN}/games/620?utm_source=vk&utm_medium=cpc&utm_campaign=spring` };
    expect(await buildCampaignLink(t.db, input({ target: "game", game: "620" }), ORIGIN, [])).toMatchObject(expected);
    expect(await buildCampaignLink(t.db, input({ target: "game", game: "portal 2" }), ORIGIN, [])).toMatchObject(expected);
    expect(await buildCampaignLink(t.db, input({ target: "game", game: "999999999" }), ORIGIN, [])).toEqual({
      ok: false,
      field: "game",
      problem: "game_not_found",
    });
  });

  it("keeps a page of one's own on the store", async () => {
    expect(await buildCampaignLink(t.db, input({ target: "path", path: `${ORIGIN}/gear?platform=570#top` }), ORIGIN, [])).toMatchObject({
      ok: true,
      url: `${ORIGIN}/gear?platform=570&utm_source=vk&utm_medium=cpc&utm_campaign=spring#top`,
    });
    for (const path of ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]) {
      expect(await buildCampaignLink(t.db, input({ target: "path", path }), ORIGIN, [])).toEqual({
        ok: false,
        field: "path",
        problem: "not_store",
      });
    }
  });
});
