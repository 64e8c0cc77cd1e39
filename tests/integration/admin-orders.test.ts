import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "@/lib/db/schema";
import { adminOrderFilterSchema, type AdminOrderFilter } from "@/lib/schemas/admin-orders";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import {
  adminOrdersCsv,
  countAdminOrders,
  getAdminOrder,
  getAdminOrderTimeline,
  listAdminOrders,
  refundOrder,
  resendOrderCallback,
  resendOrderMail,
} from "@/lib/services/admin-orders";
import type { Actor } from "@/lib/services/audit";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { cancelIntent, payIntent } from "@/lib/services/intent-lifecycle";
import { createApiToken, ensureUser, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { payIntentWithCallback } from "@/tests/support/paid-intent";

// The back office's orders: the list's filters, search, sorting and paging in the database, the
// CSV export of the filtered set, and each staff action with the audit entry it commits with.

const ORIGIN = "https://store.example.com";
let t: TestDatabase;
let token: AuthToken;
let actor: Actor;

/** The orders made for the list tests, by name. */
const o: Record<string, string> = {};
let giftRecipient = "";

const filter = (params: Record<string, string>): AdminOrderFilter => adminOrderFilterSchema.parse(params);
const ids = async (params: Record<string, string>, pageSize = 100) =>
  (await listAdminOrders(t.db, filter(params), pageSize)).rows.map((r) => r.id);

async function gift(invite: string, email: string, attribution?: Record<string, string>): Promise<string> {
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: `https://s.team/p/fhgc-rdqr/${invite}`, region: "RU" },
    email,
    fee: "excluded",
    ...(attribution ? { attribution } : {}),
  });
  return (await verifyGift(t.db, token, body, ORIGIN)).intentId;
}

async function gear(email: string, account: string, attribution?: Record<string, string>): Promise<string> {
  const body = gearIntentRequestSchema.parse({
    account,
    platform: "730",
    item: "admin-crate",
    email,
    ...(attribution ? { attribution } : {}),
  });
  return (await reserveGear(t.db, token, body, ORIGIN)).intentId;
}

const pay = (intentId: string) =>
  payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: `sbx_${intentId.slice(0, 8)}`, origin: ORIGIN });

/** Backdates an order, past the trigger that keeps an intent's facts fixed (the list sorts and filters by this). */
const setCreated = (intentId: string, at: string) =>
  t.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(sql`UPDATE intents SET created_at = ${at}::timestamptz WHERE id = ${intentId}`);
  });

const auditOf = async (intentId: string) =>
  (
    await t.db
      .select()
      .from(auditLog)
      .where(sql`target_type = 'intent' AND target_id = ${intentId}`)
      .orderBy(auditLog.id)
  ).map((a) => ({
    action: a.action,
    actor: a.actor,
    actorId: a.actorId,
    before: a.before,
    after: a.after,
    note: a.note,
  }));

beforeAll(async () => {
  t = await createTestDatabase();
  const userId = await ensureUser(t.db, "orders-partner@example.com");
  const created = await createApiToken(t.db, { userId, name: "orders partner", scopes: ["gifts:verify", "gear:create", "intents:read"] });
  token = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  const staffId = await ensureUser(t.db, "operator@staff.example.com");
  actor = { userId: staffId, label: "operator@staff.example.com" };
  await t.db.execute(
    sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'admin-crate', 'Admin Crate', 7000, 1000)`,
  );

  o.paidGift = await gift("NQVGTQPG", "anna@example.com", { utm_source: "vk", utm_medium: "cpc", utm_campaign: "spring" });
  await pay(o.paidGift);
  o.unpaidGift = await gift("NQVGTQPH", "boris@example.com", { utm_source: "telegram", utm_campaign: "spring" });
  o.paidGear = await gear("+cmd@evil.example.com", "76561198000000042", {
    utm_source: '=HYPERLINK("http://evil")',
    utm_campaign: "-2+3",
  });
  await pay(o.paidGear);
  o.canceledGear = await gear("carl@example.com", "76561198000000043");
  await cancelIntent(t.db, o.canceledGear, ORIGIN);
  o.lapsedGift = await gift("NQVGTQPJ", "dora@example.com");
  await t.db.execute(sql`UPDATE intents SET expires_at = now() - interval '1 minute' WHERE id = ${o.lapsedGift}`);

  await setCreated(o.paidGift, "2025-03-01T10:00:00Z");
  await setCreated(o.unpaidGift, "2025-03-02T10:00:00Z");
  await setCreated(o.paidGear, "2025-03-03T10:00:00Z");
  await setCreated(o.canceledGear, "2025-03-04T10:00:00Z");
  await setCreated(o.lapsedGift, "2025-03-05T10:00:00Z");
  const [row] = (await t.db.execute<{ r: string }>(sql`SELECT recipient_steam_id AS r FROM intents WHERE id = ${o.paidGift}`)).rows;
  giftRecipient = row!.r;
});
afterAll(() => t?.close());

describe("the order list", () => {
  it("lists every order newest first, with what each row shows", async () => {
    const page = await listAdminOrders(t.db, filter({}));
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.id)).toEqual([o.lapsedGift, o.canceledGear, o.paidGear, o.unpaidGift, o.paidGift]);
    const paid = page.rows.find((r) => r.id === o.paidGift)!;
    expect(paid).toMatchObject({
      kind: "gift",
      status: "paid",
      appId: 620,
      email: "anna@example.com",
      recipient: giftRecipient,
      region: "RU",
      deliveryStatus: "pending",
      campaign: "spring",
      source: "vk",
    });
    expect(paid.recipient).toMatch(/^7656119\d{10}$/);
    expect(page.rows.find((r) => r.id === o.paidGear)).toMatchObject({
      kind: "gear",
      itemTitle: "Admin Crate",
      recipient: "76561198000000042",
    });
    // Unpaid and past its time reads as expired before the sweep records it.
    expect(page.rows.find((r) => r.id === o.lapsedGift)!.status).toBe("expired");
  });

  it.each([
    [{ state: "paid" }, ["paidGear", "paidGift"]],
    [{ state: "requires_payment" }, ["unpaidGift"]],
    [{ state: "canceled" }, ["canceledGear"]],
    [{ state: "expired" }, ["lapsedGift"]],
    [{ state: "refunded" }, []],
    [{ delivery: "pending" }, ["paidGear", "paidGift"]],
    [{ delivery: "none" }, ["lapsedGift", "canceledGear", "unpaidGift"]],
    [{ kind: "gear" }, ["canceledGear", "paidGear"]],
    [{ kind: "gift", state: "paid" }, ["paidGift"]],
    [{ game: "620" }, ["lapsedGift", "unpaidGift", "paidGift"]],
    [{ game: "730" }, ["canceledGear", "paidGear"]],
    [{ from: "2025-03-02", to: "2025-03-03" }, ["paidGear", "unpaidGift"]],
    [{ from: "2025-03-05" }, ["lapsedGift"]],
    [{ to: "2025-03-01" }, ["paidGift"]],
    [{ campaign: "spring" }, ["unpaidGift", "paidGift"]],
    [{ campaign: "spring", source: "vk" }, ["paidGift"]],
    [{ source: "telegram" }, ["unpaidGift"]],
    [{ state: "bogus", kind: "nope", from: "yesterday" }, ["lapsedGift", "canceledGear", "paidGear", "unpaidGift", "paidGift"]],
  ])("filters by %j", async (params, expected) => {
    expect(await ids(params as Record<string, string>)).toEqual(expected.map((k) => o[k]));
  });

  it("finds a game by part of its title", async () => {
    const [row] = (await t.db.execute<{ title: string }>(sql`SELECT title FROM games WHERE app_id = 620`)).rows;
    const part = row!.title.slice(1, 5).toLowerCase();
    expect(await ids({ game: part })).toEqual(expect.arrayContaining([o.unpaidGift, o.paidGift, o.lapsedGift]));
    expect(await ids({ game: "no game is called this" })).toEqual([]);
  });

  it.each([
    ["the whole e-mail, any case", () => "ANNA@example.com", ["paidGift"]],
    ["the beginning of an e-mail", () => "boris@", ["unpaidGift"]],
    ["an order id", () => o.paidGear!, ["paidGear"]],
    ["an order id's first eight characters", () => o.canceledGear!.slice(0, 8), ["canceledGear"]],
    // The fixture's invite links share one friend code: every gift went to the same friend.
    ["the recipient's SteamID64", () => giftRecipient, ["lapsedGift", "unpaidGift", "paidGift"]],
    ["a gear account", () => "76561198000000043", ["canceledGear"]],
    [
      "an invite link: every gift to the friend it invites to",
      () => "https://s.team/p/fhgc-rdqr/NQVGTQPH",
      ["lapsedGift", "unpaidGift", "paidGift"],
    ],
    ["an invite link that does not decode: that link only", () => "https://example.com/not-an-invite", []],
    ["nothing that matches", () => "nobody@nowhere.example", []],
  ])("searches by %s", async (_what, q, expected) => {
    expect(await ids({ q: q() })).toEqual(expected.map((k) => o[k]));
  });

  it("sorts by amount, state and creation, either way", async () => {
    const byAmount = (await listAdminOrders(t.db, filter({ sort: "amount", dir: "asc" }))).rows.map((r) => r.paymentAmount);
    expect(byAmount).toEqual([...byAmount].sort((a, b) => a - b));
    const byAmountDesc = (await listAdminOrders(t.db, filter({ sort: "amount", dir: "desc" }))).rows.map((r) => r.paymentAmount);
    expect(byAmountDesc).toEqual([...byAmount].reverse());
    expect(await ids({ sort: "created", dir: "asc" })).toEqual([o.paidGift, o.unpaidGift, o.paidGear, o.canceledGear, o.lapsedGift]);
    const byState = (await listAdminOrders(t.db, filter({ sort: "state", dir: "asc" }))).rows.map((r) => r.status);
    expect(byState).toEqual(["requires_payment", "paid", "paid", "canceled", "expired"]);
  });

  it("pages in the database: pages of two cover every order once, and a page past the end is the last", async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => listAdminOrders(t.db, filter({ page: String(page) }), 2)));
    expect(pages.map((p) => p.rows.length)).toEqual([2, 2, 1]);
    expect(pages[0]).toMatchObject({ total: 5, pageCount: 3, page: 1 });
    expect(pages.flatMap((p) => p.rows.map((r) => r.id))).toEqual(await ids({}));
    expect((await listAdminOrders(t.db, filter({ page: "99" }), 2)).page).toBe(3);
  });

  it("counts up to a cap and then says there are more, still knowing whether a page follows", async () => {
    expect(await countAdminOrders(t.db, filter({}), 3)).toEqual({ count: 3, capped: true });
    expect(await countAdminOrders(t.db, filter({}), 5)).toEqual({ count: 5, capped: false });
    expect(await countAdminOrders(t.db, filter({ kind: "gear" }), 1)).toEqual({ count: 1, capped: true });
    // A cap of 2 with pages of 2: page 1 knows of at least 3 orders, so a second page; a later page
    // counts to its own end, so page 3 (the last) is exact again.
    const first = await listAdminOrders(t.db, filter({}), 2, 2);
    expect(first).toMatchObject({ total: 2, capped: true, page: 1, pageCount: 2 });
    const last = await listAdminOrders(t.db, filter({ page: "3" }), 2, 2);
    expect(last).toMatchObject({ total: 5, capped: false, page: 3, pageCount: 3 });
    expect(last.rows.map((r) => r.id)).toEqual((await ids({})).slice(4));
  });
});

describe("the CSV export", () => {
  const csv = async (params: Record<string, string>, options?: { max?: number; batch?: number }) => {
    let text = "";
    for await (const chunk of adminOrdersCsv(t.db, filter(params), options)) text += chunk;
    return text;
  };

  it("writes a header and every filtered row, across batches, with CRLF line ends", async () => {
    const text = await csv({}, { batch: 2 });
    const lines = text.split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines[0]).toBe(
      "id,created_at,kind,state,delivery_status,app_id,game,item,recipient,region,email,intent_amount_kopecks,discount_kopecks," +
        "fee_kopecks,payment_amount_kopecks,promo_code,utm_source,utm_medium,utm_campaign,paid_at,refunded_at",
    );
    expect(lines.slice(1, -1).map((l) => l.split(",")[0])).toEqual(await ids({}));
    expect(
      (await csv({ kind: "gear" }))
        .split("\r\n")
        .slice(1, -1)
        .map((l) => l.split(",")[0]),
    ).toEqual([o.canceledGear, o.paidGear]);
  });

  it.each<Record<string, string>>([
    {},
    { sort: "amount" },
    { sort: "amount", dir: "asc" },
    { sort: "state" },
    { sort: "state", dir: "asc" },
    { dir: "asc" },
  ])("goes on from each batch's last row in the list's order (%j), one row at a time too", async (params) => {
    const expected = await ids(params);
    for (const batch of [1, 2, 3]) {
      const text = await csv(params, { batch });
      expect(
        text
          .split("\r\n")
          .slice(1, -1)
          .map((l) => l.split(",")[0]),
      ).toEqual(expected);
    }
  });

  it("stops at the cap", async () => {
    expect((await csv({}, { max: 3, batch: 2 })).split("\r\n")).toHaveLength(1 + 3 + 1);
  });

  it("defuses cells a spreadsheet would run as formulas, and quotes per RFC 4180", async () => {
    const text = await csv({ q: o.paidGear! });
    const row = text.split("\r\n")[1]!;
    expect(row).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(row).toContain(",'-2+3,");
    expect(row).toContain(",'+cmd@evil.example.com,");
    expect(row).not.toMatch(/,[=+@-]/);
  });
});

describe("the order page", () => {
  it("has everything about the order and its timeline in time order", async () => {
    const order = (await getAdminOrder(t.db, o.paidGift!))!;
    expect(order).toMatchObject({
      status: "paid",
      token: { name: "orders partner", purpose: "api" },
      ownerEmail: "orders-partner@example.com",
      delivery: { status: "pending", provider: "manual" },
    });
    expect(order.intent.attribution).toEqual({ utm_source: "vk", utm_medium: "cpc", utm_campaign: "spring" });
    const timeline = await getAdminOrderTimeline(t.db, order);
    const types = timeline.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["status", "payment", "delivery", "mail"]));
    expect(timeline.map((e) => e.at.getTime())).toEqual([...timeline.map((e) => e.at.getTime())].sort((a, b) => a - b));
    expect(await getAdminOrder(t.db, "not-a-uuid")).toBeNull();
    expect(await getAdminOrder(t.db, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});

describe("staff actions on an order, each with its audit entry", () => {
  it("refunds a paid order with the reason given, audited in the same transaction", async () => {
    const intentId = await gift("NQVGTQPK", "refund-me@example.com");
    await pay(intentId);
    expect(await refundOrder(t.db, actor, { intentId, note: "the customer changed their mind" }, ORIGIN)).toEqual({ status: "refunded" });
    const order = (await getAdminOrder(t.db, intentId))!;
    expect(order.intent).toMatchObject({ status: "refunded", refundReason: "operator", refundNote: "the customer changed their mind" });
    expect(order.delivery).toMatchObject({ status: "failed", failureReason: "refunded_before_delivery" });
    expect(await auditOf(intentId)).toEqual([
      {
        action: "order.refund",
        actor: actor.label,
        actorId: actor.userId,
        before: { status: "paid", paymentAmount: order.intent.paymentAmount },
        after: { status: "refunded", refundReason: "operator", providerRefundId: expect.stringMatching(/^sbx_re_/) },
        note: "the customer changed their mind",
      },
    ]);
    const timeline = await getAdminOrderTimeline(t.db, order);
    expect(timeline.filter((e) => e.type === "refund" || e.type === "audit").map((e) => e.type)).toEqual(["refund", "audit"]);
    expect(timeline.find((e) => e.type === "status" && e.value === "refunded")).toMatchObject({ actor: actor.label });
  });

  it("refuses to refund an unpaid or already refunded order, and audits nothing", async () => {
    await expect(refundOrder(t.db, actor, { intentId: o.unpaidGift!, note: "nope" }, ORIGIN)).rejects.toMatchObject({
      reason: "intent_state_conflict",
    });
    expect(await auditOf(o.unpaidGift!)).toEqual([]);
    const intentId = await gift("NQVGTQPL", "twice@example.com");
    await pay(intentId);
    await refundOrder(t.db, actor, { intentId, note: "first" }, ORIGIN);
    await expect(refundOrder(t.db, actor, { intentId, note: "second" }, ORIGIN)).rejects.toMatchObject({ reason: "intent_state_conflict" });
    expect((await auditOf(intentId)).map((a) => a.note)).toEqual(["first"]);
  });

  it("sends an e-mail again: the kept message goes back to pending, audited", async () => {
    const intentId = await gift("NQVGTQPM", "mail-again@example.com");
    await pay(intentId);
    await t.db.execute(sql`UPDATE mail_messages SET status = 'stored', sent_at = now(), attempt_count = 1 WHERE intent_id = ${intentId}`);
    const { mailId } = await resendOrderMail(t.db, actor, { intentId, kind: "receipt" }, ORIGIN);
    const [mail] = (
      await t.db.execute<{ id: string; status: string; sent_at: Date | null }>(
        sql`SELECT id, status, sent_at FROM mail_messages WHERE intent_id = ${intentId} AND kind = 'receipt'`,
      )
    ).rows;
    expect(mail).toEqual({ id: mailId, status: "pending", sent_at: null });
    expect(await auditOf(intentId)).toEqual([
      {
        action: "mail.resend",
        actor: actor.label,
        actorId: actor.userId,
        before: { mailId, kind: "receipt", status: "stored", attemptCount: 1 },
        after: { mailId, kind: "receipt", status: "pending" },
        note: null,
      },
    ]);
  });

  it("writes an e-mail the order should have but lacks, and refuses one it is not due", async () => {
    const intentId = await gift("NQVGTQPN", "no-receipt@example.com");
    await pay(intentId);
    await t.db.execute(sql`DELETE FROM mail_messages WHERE intent_id = ${intentId}`);
    const { mailId } = await resendOrderMail(t.db, actor, { intentId, kind: "receipt" }, ORIGIN);
    const [mail] = (
      await t.db.execute<{ id: string; status: string }>(sql`SELECT id, status FROM mail_messages WHERE intent_id = ${intentId}`)
    ).rows;
    expect(mail).toEqual({ id: mailId, status: "pending" });
    expect((await auditOf(intentId))[0]).toMatchObject({ action: "mail.resend", before: null, after: { mailId, written: true } });
    await expect(resendOrderMail(t.db, actor, { intentId, kind: "delivered" }, ORIGIN)).rejects.toMatchObject({
      reason: "intent_state_conflict",
      details: { current: "paid", target: "fulfilled" },
    });
    expect(await auditOf(intentId)).toHaveLength(1);
  });

  it("sends a callback again: a new delivery with the same body, audited; another order's callback is not found", async () => {
    const paid = await payIntentWithCallback(t.db, "https://partner.example.com/hook", "orders-partner@example.com");
    const { deliveryId } = await resendOrderCallback(t.db, actor, { intentId: paid.intentId, deliveryId: paid.deliveryId });
    const [copy] = (
      await t.db.execute<{ resend_of: string; body: string; status: string; url: string }>(
        sql`SELECT resend_of, body, status, url FROM webhook_deliveries WHERE id = ${deliveryId}`,
      )
    ).rows;
    expect(copy).toEqual({ resend_of: paid.deliveryId, body: paid.body, status: "pending", url: "https://partner.example.com/hook" });
    expect(await auditOf(paid.intentId)).toEqual([
      {
        action: "callback.resend",
        actor: actor.label,
        actorId: actor.userId,
        before: { deliveryId: paid.deliveryId, status: "pending", attemptCount: 0 },
        after: { deliveryId, resendOf: paid.deliveryId, status: "pending" },
        note: null,
      },
    ]);
    // A resend of the resend still points at the first delivery.
    const again = await resendOrderCallback(t.db, actor, { intentId: paid.intentId, deliveryId });
    const [second] = (
      await t.db.execute<{ resend_of: string }>(sql`SELECT resend_of FROM webhook_deliveries WHERE id = ${again.deliveryId}`)
    ).rows;
    expect(second!.resend_of).toBe(paid.deliveryId);
    await expect(resendOrderCallback(t.db, actor, { intentId: o.paidGift!, deliveryId: paid.deliveryId })).rejects.toMatchObject({
      reason: "webhook_delivery_not_found",
    });
    const timeline = await getAdminOrderTimeline(t.db, (await getAdminOrder(t.db, paid.intentId))!);
    expect(timeline.filter((e) => e.type === "callback")).toHaveLength(3);
    expect(timeline.filter((e) => e.type === "audit")).toHaveLength(2);
  });
});
