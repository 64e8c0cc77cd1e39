import "server-only";
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database, DbExecutor } from "@/lib/db/client";
import {
  apiTokens,
  auditLog,
  deliveries,
  deliveryAttempts,
  games,
  gearItems,
  intentEvents,
  intents,
  mailMessages,
  packages,
  promoCodes,
  users,
  webhookAttempts,
  webhookDeliveries,
} from "@/lib/db/schema";
import { csvRow } from "@/lib/csv";
import { DomainError } from "@/lib/errors";
import type { IntentStatus } from "@/lib/intents/states";
import type { MailKind } from "@/lib/mail/kinds";
import { enqueueIntentMail } from "@/lib/mail/outbox";
import { ADMIN_ORDERS_COUNT_CAP, ADMIN_ORDERS_EXPORT_MAX, ADMIN_ORDERS_PAGE_SIZE, type AdminOrderFilter } from "@/lib/schemas/admin-orders";
import { isUuid } from "@/lib/schemas/common";
import { inviteRecipient } from "@/lib/steam";
import { recordAudit, type Actor } from "./audit";
import { refundIntent } from "./refunds";

// The back office's orders (/admin/orders): the list with its filters, search, sorting and paging
// done in the database, its CSV export, one order with everything about it, and the staff actions on
// it, each audited in the change's own transaction. Over a million orders the list stays an index
// walk (drizzle/0018 and 0021 index each filter and sort with the list's order): a page's ids come
// from the narrowest rows that answer it and only those 25 are joined to what they show (a deferred
// join), the export walks on from its last row (keyset), and counting stops at a cap instead of
// reading every match.

/** Unpaid and past its time: shown (and filtered) as expired before the sweep records it. */
const lapsed = sql`(${intents.status} = 'requires_payment' AND ${intents.expiresAt} <= now())`;
const shownStatus = sql<IntentStatus>`CASE WHEN ${lapsed} THEN 'expired' ELSE ${intents.status} END`;
/** The lifecycle's order, for sorting by state; drizzle/0021 indexes the stored state's rank with the list's order. */
const STATE_ORDER = ["requires_payment", "paid", "fulfilled", "refunded", "canceled", "expired"] as const satisfies readonly IntentStatus[];
const rankOf = (status: SQL) => sql`array_position(ARRAY[${sql.raw(STATE_ORDER.map((s) => `'${s}'`).join(", "))}]::text[], ${status})`;
const storedRank = rankOf(sql`${intents.status}`);
const statusRank = rankOf(shownStatus);
const rankNumber = (status: IntentStatus) => STATE_ORDER.indexOf(status) + 1;
const EXPIRED_RANK = rankNumber("expired");
/** A game's name matching more games than this is searched as a subquery instead of a list of ids. */
const TITLE_MATCHES_MAX = 200;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const utcDay = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** An order id's first characters (the list shows eight) as the range of ids they begin, so the primary key answers. */
function idPrefixRange(value: string): [string, string] | null {
  const hex = value.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{4,32}$/.test(hex)) return null;
  const asUuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return [asUuid(hex.padEnd(32, "0")), asUuid(hex.padEnd(32, "f"))];
}

/**
 * What the search box matches, chosen by what was typed, so each case is one indexed lookup: an
 * e-mail (or its beginning), a SteamID64 (a gift's recipient or a gear account), an invite link
 * (that link, and every gift to the friend it decodes to), an order id or its first characters.
 */
function searchCondition(raw: string): SQL {
  const q = raw.trim();
  const emailPrefix = sql`lower(${intents.email}) LIKE ${`${escapeLike(q.toLowerCase())}%`}`;
  if (q.includes("@")) return emailPrefix;
  if (/^\d{17}$/.test(q)) return or(eq(intents.recipientSteamId, q), eq(intents.account, q))!;
  if (/^(https?:\/\/)?s\.team\//i.test(q) || /^https?:\/\//i.test(q)) {
    const url = /^https?:\/\//i.test(q) ? q : `https://${q}`;
    const friend = inviteRecipient(url);
    return friend ? or(eq(intents.inviteUrl, url), eq(intents.recipientSteamId, friend.steamId64))! : eq(intents.inviteUrl, url);
  }
  if (isUuid(q)) return eq(intents.id, q.toLowerCase());
  const range = idPrefixRange(q);
  if (range) return or(sql`${intents.id} BETWEEN ${range[0]}::uuid AND ${range[1]}::uuid`, emailPrefix)!;
  return emailPrefix;
}

/**
 * The filter's conditions. A game named by part of its title is looked up in the catalog first (its
 * trigram indexes), so the orders are then read by their own index for exactly those games, with the
 * planner knowing which (a bestseller's orders are read newest first, a rare game's picked out).
 */
async function whereOf(db: DbExecutor, filter: AdminOrderFilter): Promise<SQL | undefined> {
  const where: SQL[] = [];
  // The state's rank, not the state: one index then serves the filter and the sort by state.
  if (filter.state === "expired") where.push(or(sql`${storedRank} = ${EXPIRED_RANK}`, lapsed)!);
  else if (filter.state === "requires_payment")
    where.push(sql`${storedRank} = ${rankNumber("requires_payment")} AND ${intents.expiresAt} > now()`);
  else if (filter.state) where.push(sql`${storedRank} = ${rankNumber(filter.state)}`);
  if (filter.delivery === "none") where.push(isNull(deliveries.id));
  else if (filter.delivery) where.push(eq(deliveries.status, filter.delivery));
  if (filter.kind) where.push(eq(intents.kind, filter.kind));
  if (filter.game) {
    if (/^\d{1,9}$/.test(filter.game)) where.push(eq(intents.appId, Number(filter.game)));
    else {
      const like = `%${escapeLike(filter.game)}%`;
      const titled = or(ilike(games.title, like), ilike(games.titleRu, like));
      const found = await db
        .select({ appId: games.appId })
        .from(games)
        .where(titled)
        .limit(TITLE_MATCHES_MAX + 1);
      if (found.length === 0) where.push(sql`false`);
      else if (found.length <= TITLE_MATCHES_MAX)
        where.push(
          inArray(
            intents.appId,
            found.map((g) => g.appId),
          ),
        );
      else where.push(sql`${intents.appId} IN (SELECT ${games.appId} FROM ${games} WHERE ${titled})`);
    }
  }
  if (filter.from) where.push(gte(intents.createdAt, utcDay(filter.from)));
  if (filter.to) where.push(lt(intents.createdAt, new Date(utcDay(filter.to).getTime() + 24 * 3600 * 1000)));
  if (filter.campaign) where.push(sql`(${intents.attribution} ->> 'utm_campaign') = ${filter.campaign}`);
  if (filter.source) where.push(sql`(${intents.attribution} ->> 'utm_source') = ${filter.source}`);
  if (filter.q) where.push(searchCondition(filter.q));
  return where.length ? and(...where) : undefined;
}

/** The list's sort keys, most significant first; ties break on creation then id, the same way every time, so pages never repeat or skip a row. */
function sortKeys(filter: AdminOrderFilter): SQL[] {
  const key = filter.sort === "amount" ? sql`${intents.paymentAmount}` : filter.sort === "state" ? statusRank : null;
  return [...(key ? [key] : []), sql`${intents.createdAt}`, sql`${intents.id}`];
}

function orderOf(filter: AdminOrderFilter): SQL[] {
  const direction = filter.dir === "asc" ? asc : desc;
  return sortKeys(filter).map((key) => direction(key));
}

/** Rows after the intent `afterId` in the list's order (`keys` its sort keys): where a batch of the export goes on from. */
function after(filter: AdminOrderFilter, afterId: string, keys: SQL[] = sortKeys(filter)): SQL {
  // That intent's own keys, read in the database (the inner intents is the nearer name), so they compare at full precision.
  const theirs = sql.join(sortKeys(filter), sql`, `);
  const cmp = sql.raw(filter.dir === "asc" ? ">" : "<");
  return sql`(${sql.join(keys, sql`, `)}) ${cmp} (SELECT ${theirs} FROM ${intents} WHERE ${intents.id} = ${afterId})`;
}

/** The ids the filter matches, from intents alone (and the deliveries when their status is asked for). */
function matchingIds(db: DbExecutor, filter: AdminOrderFilter, where: SQL | undefined) {
  const ids = db.select({ id: intents.id }).from(intents).$dynamic();
  return (filter.delivery ? ids.leftJoin(deliveries, eq(deliveries.intentId, intents.id)) : ids).where(where);
}

interface Slice {
  limit: number;
  offset?: number;
  /** Rows after this intent, in the list's order: the export's batches. */
  afterId?: string;
}

/** The ids of one page (or export batch) of the filtered list, in its order, read from indexes without the rows they show. */
async function sliceIds(
  db: DbExecutor,
  filter: AdminOrderFilter,
  where: SQL | undefined,
  { limit, offset = 0, afterId }: Slice,
): Promise<string[]> {
  if (filter.sort !== "state") {
    const rows = await matchingIds(db, filter, and(where, afterId ? after(filter, afterId) : undefined))
      .orderBy(...orderOf(filter))
      .limit(limit)
      .offset(offset);
    return rows.map((r) => r.id);
  }
  // By state, as shown: every order by its stored state's rank (an index's order), except the few
  // unpaid ones past their time, which show as expired and so take that rank. Each stream reads in
  // its index's order only as far as the page can reach; the two are then merged, instead of ranking
  // every order to sort them all.
  const direction = filter.dir === "asc" ? asc : desc;
  const stream = (rank: SQL, only: SQL, constant = false) => {
    const keys = [rank, sql`${intents.createdAt}`, sql`${intents.id}`];
    const ids = db
      .select({ rank: sql<number>`${rank}`.as("rank"), createdAt: intents.createdAt, id: intents.id })
      .from(intents)
      .$dynamic();
    return (filter.delivery ? ids.leftJoin(deliveries, eq(deliveries.intentId, intents.id)) : ids)
      .where(and(where, only, afterId ? after(filter, afterId, keys) : undefined))
      .orderBy(...keys.slice(constant ? 1 : 0).map((key) => direction(key)))
      .limit(offset + limit);
  };
  const dir = sql.raw(filter.dir === "asc" ? "ASC" : "DESC");
  const { rows } = await db.execute<{ id: string }>(sql`
    SELECT id FROM (${stream(storedRank, sql`NOT ${lapsed}`)} UNION ALL ${stream(sql.raw(String(EXPIRED_RANK)), lapsed, true)}) ranked
    ORDER BY rank ${dir}, created_at ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`);
  return rows.map((r) => r.id);
}

const rowColumns = {
  id: intents.id,
  createdAt: intents.createdAt,
  kind: intents.kind,
  status: shownStatus,
  appId: intents.appId,
  gameTitle: games.title,
  edition: packages.title,
  gearTitle: gearItems.title,
  inviteUrl: intents.inviteUrl,
  recipientSteamId: intents.recipientSteamId,
  account: intents.account,
  giftRegion: intents.giftRegion,
  email: intents.email,
  intentAmount: intents.intentAmount,
  discountAmount: intents.discountAmount,
  feeAmount: intents.feeAmount,
  paymentAmount: intents.paymentAmount,
  deliveryStatus: deliveries.status,
  attribution: intents.attribution,
  promoCode: promoCodes.code,
  paidAt: intents.paidAt,
  refundedAt: intents.refundedAt,
};

/** The rows of one page (or export batch): its ids first, then only those rows joined to what they show. */
async function selectRows(db: DbExecutor, filter: AdminOrderFilter, where: SQL | undefined, slice: Slice) {
  const ids = await sliceIds(db, filter, where, slice);
  if (ids.length === 0) return [];
  return db
    .select(rowColumns)
    .from(intents)
    .innerJoin(games, eq(games.appId, intents.appId))
    .leftJoin(packages, eq(packages.packageId, intents.packageId))
    .leftJoin(gearItems, eq(gearItems.id, intents.gearItemId))
    .leftJoin(promoCodes, eq(promoCodes.id, intents.promoCodeId))
    .leftJoin(deliveries, eq(deliveries.intentId, intents.id))
    .where(inArray(intents.id, ids))
    .orderBy(...orderOf(filter));
}

type RawRow = Awaited<ReturnType<typeof selectRows>>[number];

export interface AdminOrderRow {
  id: string;
  createdAt: Date;
  kind: "gift" | "gear";
  status: IntentStatus;
  appId: number;
  gameTitle: string;
  /** The edition of a gift, the item of a gear order. */
  itemTitle: string | null;
  /** A gift's friend (SteamID64, or the invite link when it did not decode), a gear order's account. */
  recipient: string | null;
  region: string | null;
  email: string;
  intentAmount: number;
  discountAmount: number;
  feeAmount: number;
  paymentAmount: number;
  deliveryStatus: string | null;
  campaign: string | null;
  source: string | null;
  medium: string | null;
  promoCode: string | null;
  paidAt: Date | null;
  refundedAt: Date | null;
}

function toRow(r: RawRow): AdminOrderRow {
  return {
    id: r.id,
    createdAt: r.createdAt,
    kind: r.kind,
    status: r.status,
    appId: r.appId,
    gameTitle: r.gameTitle,
    itemTitle: r.kind === "gift" ? r.edition : r.gearTitle,
    recipient: r.kind === "gift" ? (r.recipientSteamId ?? r.inviteUrl) : r.account,
    region: r.giftRegion,
    email: r.email,
    intentAmount: r.intentAmount,
    discountAmount: r.discountAmount,
    feeAmount: r.feeAmount,
    paymentAmount: r.paymentAmount,
    deliveryStatus: r.deliveryStatus,
    campaign: r.attribution?.utm_campaign ?? null,
    source: r.attribution?.utm_source ?? null,
    medium: r.attribution?.utm_medium ?? null,
    promoCode: r.promoCode,
    paidAt: r.paidAt,
    refundedAt: r.refundedAt,
  };
}

export interface AdminOrderCount {
  /** Matches counted: all of them, or `cap` when there are more. */
  count: number;
  /** More than `count` match: counting stopped at the cap. */
  capped: boolean;
}

/**
 * How many orders the filter matches, counting no further than `cap`: "more than 10,000" costs a
 * walk of 10,001 index entries, where the exact figure of a million would read them all.
 */
export async function countAdminOrders(db: DbExecutor, filter: AdminOrderFilter, cap = ADMIN_ORDERS_COUNT_CAP): Promise<AdminOrderCount> {
  return countMatches(db, filter, await whereOf(db, filter), cap);
}

async function countMatches(db: DbExecutor, filter: AdminOrderFilter, where: SQL | undefined, cap: number): Promise<AdminOrderCount> {
  const matches = matchingIds(db, filter, where)
    .limit(cap + 1)
    .as("matches");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(matches);
  const n = row?.n ?? 0;
  return { count: Math.min(n, cap), capped: n > cap };
}

export interface AdminOrderPage {
  rows: AdminOrderRow[];
  /** Orders that match: exact, or a lower bound when `capped`. */
  total: number;
  /** More orders match than `total` (the count stopped at its cap); the list says "10,000+". */
  capped: boolean;
  page: number;
  /** Pages there are, or at least (when `capped`). */
  pageCount: number;
}

/**
 * One page of the filtered list, with the count of its matches, exact up to the cap (or to the end of
 * a page beyond it). A page past the end reads as the last one.
 */
export async function listAdminOrders(
  db: DbExecutor,
  filter: AdminOrderFilter,
  pageSize = ADMIN_ORDERS_PAGE_SIZE,
  countCap = ADMIN_ORDERS_COUNT_CAP,
): Promise<AdminOrderPage> {
  const asked = filter.page ?? 1;
  // Counted past the page asked for, so a deep page knows whether one follows.
  const where = await whereOf(db, filter);
  const { count, capped } = await countMatches(db, filter, where, Math.max(countCap, asked * pageSize));
  const pageCount = Math.max(1, Math.ceil((capped ? count + 1 : count) / pageSize));
  const page = Math.min(asked, pageCount);
  const rows = await selectRows(db, filter, where, { limit: pageSize, offset: (page - 1) * pageSize });
  return { rows: rows.map(toRow), total: count, capped, page, pageCount };
}

export const ADMIN_ORDERS_CSV_COLUMNS = [
  "id",
  "created_at",
  "kind",
  "state",
  "delivery_status",
  "app_id",
  "game",
  "item",
  "recipient",
  "region",
  "email",
  "intent_amount_kopecks",
  "discount_kopecks",
  "fee_kopecks",
  "payment_amount_kopecks",
  "promo_code",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "paid_at",
  "refunded_at",
] as const;

/**
 * The whole filtered list as CSV (header row first), in the list's order, read in batches that each
 * go on from the last row of the one before, so a large export neither holds every row in memory nor
 * one long query, and its last batch costs what its first did; at most `max` rows.
 */
export async function* adminOrdersCsv(
  db: DbExecutor,
  filter: AdminOrderFilter,
  { max = ADMIN_ORDERS_EXPORT_MAX, batch = 1000 }: { max?: number; batch?: number } = {},
): AsyncGenerator<string> {
  yield csvRow(ADMIN_ORDERS_CSV_COLUMNS);
  const where = await whereOf(db, filter);
  let afterId: string | undefined;
  for (let written = 0; written < max;) {
    // A short first batch: the download starts as soon as the first rows are read.
    const limit = Math.min(written === 0 ? Math.min(batch, 100) : batch, max - written);
    const rows = (await selectRows(db, filter, where, { limit, afterId })).map(toRow);
    yield rows
      .map((r) =>
        csvRow([
          r.id,
          r.createdAt,
          r.kind,
          r.status,
          r.deliveryStatus,
          r.appId,
          r.gameTitle,
          r.itemTitle,
          r.recipient,
          r.region,
          r.email,
          r.intentAmount,
          r.discountAmount,
          r.feeAmount,
          r.paymentAmount,
          r.promoCode,
          r.source,
          r.medium,
          r.campaign,
          r.paidAt,
          r.refundedAt,
        ]),
      )
      .join("");
    if (rows.length < limit) return;
    written += rows.length;
    afterId = rows.at(-1)!.id;
  }
}

const owners = alias(users, "owners");
const assignees = alias(users, "assignees");

/** Everything about one order, or null for an unknown id. */
export async function getAdminOrder(db: DbExecutor, intentId: string) {
  if (!isUuid(intentId)) return null;
  const [row] = await db
    .select({
      intent: intents,
      status: shownStatus,
      gameTitle: games.title,
      gameTitleRu: games.titleRu,
      edition: packages.title,
      gearItem: gearItems.item,
      gearTitle: gearItems.title,
      promoCode: promoCodes.code,
      token: { id: apiTokens.id, name: apiTokens.name, prefix: apiTokens.prefix, purpose: apiTokens.purpose },
      ownerEmail: owners.email,
      delivery: {
        id: deliveries.id,
        provider: deliveries.provider,
        status: deliveries.status,
        step: deliveries.step,
        failureReason: deliveries.failureReason,
        attemptCount: deliveries.attemptCount,
        nextAttemptAt: deliveries.nextAttemptAt,
        assignedTo: deliveries.assignedTo,
        assignedAt: deliveries.assignedAt,
        finishedAt: deliveries.finishedAt,
      },
      assigneeEmail: assignees.email,
    })
    .from(intents)
    .innerJoin(games, eq(games.appId, intents.appId))
    .innerJoin(apiTokens, eq(apiTokens.id, intents.tokenId))
    .innerJoin(owners, eq(owners.id, apiTokens.userId))
    .leftJoin(packages, eq(packages.packageId, intents.packageId))
    .leftJoin(gearItems, eq(gearItems.id, intents.gearItemId))
    .leftJoin(promoCodes, eq(promoCodes.id, intents.promoCodeId))
    .leftJoin(deliveries, eq(deliveries.intentId, intents.id))
    .leftJoin(assignees, eq(assignees.id, deliveries.assignedTo))
    .where(eq(intents.id, intentId));
  if (!row) return null;
  return { ...row, delivery: row.delivery?.id ? row.delivery : null };
}

export type AdminOrder = NonNullable<Awaited<ReturnType<typeof getAdminOrder>>>;

export type AdminTimelineItem = { at: Date } & (
  | { type: "status" | "delivery"; value: string; reason: string | null; actor: string | null }
  | { type: "payment"; provider: string | null; providerPaymentId: string | null; amount: number }
  | { type: "refund"; reason: string | null; note: string | null; providerRefundId: string | null }
  | {
      type: "delivery_attempt";
      attempt: number;
      outcome: string;
      step: string | null;
      failureReason: string | null;
      actor: string | null;
    }
  | {
      type: "callback";
      id: string;
      eventType: string;
      url: string;
      status: string;
      attemptCount: number;
      resendOf: string | null;
      toEndpoint: boolean;
    }
  | {
      type: "callback_attempt";
      deliveryId: string;
      attempt: number;
      responseStatus: number | null;
      error: string | null;
      durationMs: number;
    }
  | {
      type: "mail";
      id: string;
      kind: MailKind;
      recipient: string;
      status: string;
      attemptCount: number;
      lastError: string | null;
      sentAt: Date | null;
    }
  | { type: "audit"; action: string; actor: string; note: string | null }
);

/** Order of things that share a moment: the state change before what it caused. */
const TYPE_RANK: Record<AdminTimelineItem["type"], number> = {
  status: 0,
  payment: 1,
  refund: 1,
  audit: 2,
  delivery: 3,
  delivery_attempt: 4,
  callback: 5,
  callback_attempt: 6,
  mail: 7,
};

/**
 * The order's timeline, oldest first: its state changes and delivery steps (intent_events), the
 * payment and the refund, each delivery attempt, each callback and its attempts, each e-mail, and
 * what staff did to it (the audit log).
 */
export async function getAdminOrderTimeline(db: DbExecutor, order: AdminOrder): Promise<AdminTimelineItem[]> {
  const intentId = order.intent.id;
  const [events, attempts, callbacks, callbackAttempts, mails, audits] = await Promise.all([
    db.select().from(intentEvents).where(eq(intentEvents.intentId, intentId)).orderBy(asc(intentEvents.id)),
    order.delivery
      ? db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, order.delivery.id)).orderBy(asc(deliveryAttempts.id))
      : Promise.resolve([]),
    db.select().from(webhookDeliveries).where(eq(webhookDeliveries.intentId, intentId)),
    db
      .select({ attempt: webhookAttempts })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(eq(webhookDeliveries.intentId, intentId)),
    db.select().from(mailMessages).where(eq(mailMessages.intentId, intentId)),
    db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "intent"), eq(auditLog.targetId, intentId))),
  ]);
  const { intent } = order;
  const items: AdminTimelineItem[] = [
    ...events.map((e) => ({ type: e.kind, at: e.at, value: e.value, reason: e.reason, actor: e.actor })),
    ...(intent.paidAt
      ? [
          {
            type: "payment" as const,
            at: intent.paidAt,
            provider: intent.paymentProvider,
            providerPaymentId: intent.providerPaymentId,
            amount: intent.paymentAmount,
          },
        ]
      : []),
    ...(intent.refundedAt
      ? [
          {
            type: "refund" as const,
            at: intent.refundedAt,
            reason: intent.refundReason,
            note: intent.refundNote,
            providerRefundId: intent.providerRefundId,
          },
        ]
      : []),
    ...attempts.map((a) => ({
      type: "delivery_attempt" as const,
      at: a.finishedAt,
      attempt: a.attempt,
      outcome: a.outcome,
      step: a.step,
      failureReason: a.failureReason,
      actor: a.actor,
    })),
    ...callbacks.map((c) => ({
      type: "callback" as const,
      at: c.createdAt,
      id: c.id,
      eventType: c.eventType,
      url: c.url,
      status: c.status,
      attemptCount: c.attemptCount,
      resendOf: c.resendOf,
      toEndpoint: c.endpointId !== null,
    })),
    ...callbackAttempts.map(({ attempt: a }) => ({
      type: "callback_attempt" as const,
      at: a.startedAt,
      deliveryId: a.deliveryId,
      attempt: a.attempt,
      responseStatus: a.responseStatus,
      error: a.error,
      durationMs: a.durationMs,
    })),
    ...mails.map((m) => ({
      type: "mail" as const,
      at: m.createdAt,
      id: m.id,
      // Found by its intent, so an order's mail (the database's mail_messages_subject check).
      kind: m.kind as MailKind,
      recipient: m.recipient,
      status: m.status,
      attemptCount: m.attemptCount,
      lastError: m.lastError,
      sentAt: m.sentAt,
    })),
    ...audits.map((a) => ({ type: "audit" as const, at: a.at, action: a.action, actor: a.actor, note: a.note })),
  ];
  return items.sort((a, b) => a.at.getTime() - b.at.getTime() || TYPE_RANK[a.type] - TYPE_RANK[b.type]);
}

/** The e-mails an order in its state should have, by kind: each can be sent (again) from the order page. */
export function dueMailKinds(intent: Pick<AdminOrder["intent"], "paidAt" | "fulfilledAt" | "refundedAt" | "refundReason">): MailKind[] {
  const kinds: MailKind[] = [];
  if (intent.paidAt) kinds.push("receipt");
  if (intent.fulfilledAt) kinds.push("delivered");
  if (intent.refundedAt) kinds.push(intent.refundReason === "delivery_failed" ? "delivery_failed_refunded" : "refunded");
  return kinds;
}

/** The state an order must have reached for a kind of e-mail to be due: the target a refusal names. */
const MAIL_NEEDS: Record<MailKind, IntentStatus> = {
  receipt: "paid",
  delivered: "fulfilled",
  refunded: "refunded",
  delivery_failed_refunded: "refunded",
};

/**
 * A staff member's refund (orders:refund), before or after delivery, with the reason they gave
 * (required: lib/intents/refund-policy.ts): the provider refunds, the intent moves to refunded
 * (lib/services/refunds.ts), and the audit entry commits with it.
 */
export async function refundOrder(
  db: Database,
  actor: Actor,
  input: { intentId: string; note: string },
  origin: string,
): Promise<{ status: IntentStatus }> {
  const view = await refundIntent(db, input.intentId, { by: { kind: "staff", actor }, note: input.note, origin });
  return { status: view.status };
}

/**
 * Sends one of the order's e-mails again (mail:resend): the outbox row goes back to pending, due
 * now, for the worker's next round (same content, same Message-ID, so a client that got the first
 * drops the copy); a message the order should have but has not (an order older than the outbox)
 * is written now. Refused when the order has not reached the state the message tells of.
 */
export async function resendOrderMail(
  db: Database,
  actor: Actor,
  input: { intentId: string; kind: MailKind },
  origin: string,
): Promise<{ mailId: string }> {
  if (!isUuid(input.intentId)) throw new DomainError("intent_not_found", { intentId: input.intentId.slice(0, 64) }, "intentId");
  return db.transaction(async (tx) => {
    const [intent] = await tx
      .select({
        status: intents.status,
        paidAt: intents.paidAt,
        fulfilledAt: intents.fulfilledAt,
        refundedAt: intents.refundedAt,
        refundReason: intents.refundReason,
      })
      .from(intents)
      .where(eq(intents.id, input.intentId))
      .for("update");
    if (!intent) throw new DomainError("intent_not_found", { intentId: input.intentId }, "intentId");
    if (!dueMailKinds(intent).includes(input.kind)) {
      throw new DomainError("intent_state_conflict", { intentId: input.intentId, current: intent.status, target: MAIL_NEEDS[input.kind] });
    }
    const [existing] = await tx
      .select({ id: mailMessages.id, status: mailMessages.status, attemptCount: mailMessages.attemptCount })
      .from(mailMessages)
      .where(and(eq(mailMessages.intentId, input.intentId), eq(mailMessages.kind, input.kind)))
      .for("update");
    let mailId: string;
    if (existing) {
      await tx
        .update(mailMessages)
        .set({ status: "pending", nextAttemptAt: sql`now()`, lockedUntil: null, sentAt: null, lastError: null })
        .where(eq(mailMessages.id, existing.id));
      mailId = existing.id;
    } else {
      mailId = await enqueueIntentMail(tx, { intentId: input.intentId, kind: input.kind, origin });
    }
    await recordAudit(tx, actor, {
      action: "mail.resend",
      targetType: "intent",
      targetId: input.intentId,
      before: existing ? { mailId, kind: input.kind, status: existing.status, attemptCount: existing.attemptCount } : null,
      after: { mailId, kind: input.kind, status: "pending", ...(existing ? {} : { written: true }) },
    });
    return { mailId };
  });
}

/**
 * Sends one of the order's callbacks again (callbacks:resend): a new delivery of the same event with
 * the same body and `webhook-id` (Standard Webhooks: a resent message keeps its id, so a receiver
 * that already has it drops the copy), to the endpoint's current URL or the intent's callbackUrl.
 */
export async function resendOrderCallback(
  db: Database,
  actor: Actor,
  input: { intentId: string; deliveryId: string },
): Promise<{ deliveryId: string }> {
  if (!isUuid(input.intentId) || !isUuid(input.deliveryId)) throw new DomainError("webhook_delivery_not_found", {});
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string; original: string; status: string; attempt_count: number }>(sql`
      WITH original AS (
        SELECT d.* FROM ${webhookDeliveries} d WHERE d.id = ${input.deliveryId} AND d.intent_id = ${input.intentId})
      INSERT INTO ${webhookDeliveries} (intent_id, user_id, endpoint_id, resend_of, event_type, url, body)
      SELECT o.intent_id, o.user_id, o.endpoint_id, coalesce(o.resend_of, o.id), o.event_type,
        coalesce((SELECT e.url FROM webhook_endpoints e WHERE e.id = o.endpoint_id), o.url), o.body
      FROM original o
      RETURNING id, (SELECT id FROM original) AS original, (SELECT status FROM original) AS status,
        (SELECT attempt_count FROM original) AS attempt_count`);
    const row = rows[0];
    if (!row) throw new DomainError("webhook_delivery_not_found", {});
    await recordAudit(tx, actor, {
      action: "callback.resend",
      targetType: "intent",
      targetId: input.intentId,
      before: { deliveryId: row.original, status: row.status, attemptCount: row.attempt_count },
      after: { deliveryId: row.id, resendOf: row.original, status: "pending" },
    });
    return { deliveryId: row.id };
  });
}
