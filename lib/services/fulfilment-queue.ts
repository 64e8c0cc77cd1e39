import "server-only";
import { and, asc, count, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "@/lib/db/client";
import { deliveries, games, gearItems, intents, packages, users } from "@/lib/db/schema";
import type { DeliveryStatus, DeliveryStep } from "@/lib/intents/states";
import { isUuid } from "@/lib/schemas/common";
import { inviteRecipient } from "@/lib/steam";

// The fulfilment queue (/admin/queue): paid orders that people deliver by hand, oldest payment
// first, with what the person needs to send each one; and, apart, automatic deliveries that are
// retrying, which a person may push to try now.

const OPEN: DeliveryStatus[] = ["created", "pending", "retrying"];
const assignee = alias(users, "assignee");

export const QUEUE_VIEWS = ["manual", "mine", "free", "retrying"] as const;
export type QueueView = (typeof QUEUE_VIEWS)[number];

export interface QueueFilter {
  view?: QueueView;
  /** The viewer, for `mine`. */
  viewerId: string;
  /** An order id, or part of the buyer's e-mail. */
  search?: string;
  page?: number;
  pageSize?: number;
}

export interface QueueEntry {
  deliveryId: string;
  intentId: string;
  kind: "gift" | "gear";
  provider: string;
  status: DeliveryStatus;
  step: DeliveryStep;
  attempts: number;
  paidAt: Date;
  /** Since payment. */
  waitedMs: number;
  nextAttemptAt: Date;
  assignedTo: string | null;
  assigneeEmail: string | null;
  assignedAt: Date | null;
  email: string;
  appId: number;
  gameTitle: string;
  gameTitleRu: string | null;
  /** Gift: the edition's (package's) title, the region and the recipient. */
  edition: string | null;
  region: string | null;
  inviteUrl: string | null;
  /** SteamID64 decoded from the invite link (kept at purchase; decoded again for older orders). */
  recipientSteamId: string | null;
  /** Gear: what goes where. */
  item: string | null;
  itemTitle: string | null;
  account: string | null;
  tradeLink: string | null;
}

function whereFor(view: QueueView, viewerId: string, search: string | undefined): SQL {
  const base = [inArray(deliveries.status, OPEN), eq(intents.status, "paid")];
  if (search)
    base.push(isUuid(search) ? eq(intents.id, search) : sql`${intents.email} ILIKE ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  if (view === "retrying") return and(...base, ne(deliveries.provider, "manual"), eq(deliveries.status, "retrying"))!;
  base.push(eq(deliveries.provider, "manual"));
  if (view === "mine") base.push(eq(deliveries.assignedTo, viewerId));
  if (view === "free") base.push(isNull(deliveries.assignedTo));
  return and(...base)!;
}

/** One page of the queue, oldest payment first (the longest wait at the top), and how many there are in all. */
export async function listFulfilmentQueue(db: Database, filter: QueueFilter): Promise<{ entries: QueueEntry[]; total: number }> {
  const view = filter.view ?? "manual";
  const pageSize = Math.min(Math.max(filter.pageSize ?? 25, 1), 100);
  const page = Math.max(filter.page ?? 1, 1);
  const where = whereFor(view, filter.viewerId, filter.search?.trim() || undefined);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        deliveryId: deliveries.id,
        intentId: intents.id,
        kind: intents.kind,
        provider: deliveries.provider,
        status: deliveries.status,
        step: deliveries.step,
        attempts: deliveries.attemptCount,
        paidAt: intents.paidAt,
        // By the database's clock, like paid_at itself.
        waitedMs: sql<number>`(extract(epoch FROM now() - ${intents.paidAt}) * 1000)::float8`,
        nextAttemptAt: deliveries.nextAttemptAt,
        assignedTo: deliveries.assignedTo,
        assigneeEmail: assignee.email,
        assignedAt: deliveries.assignedAt,
        email: intents.email,
        appId: intents.appId,
        gameTitle: games.title,
        gameTitleRu: games.titleRu,
        edition: packages.title,
        region: intents.giftRegion,
        inviteUrl: intents.inviteUrl,
        recipientSteamId: intents.recipientSteamId,
        item: gearItems.item,
        itemTitle: gearItems.title,
        account: intents.account,
        tradeLink: intents.tradeLink,
      })
      .from(deliveries)
      .innerJoin(intents, eq(intents.id, deliveries.intentId))
      .innerJoin(games, eq(games.appId, intents.appId))
      .leftJoin(packages, eq(packages.packageId, intents.packageId))
      .leftJoin(gearItems, eq(gearItems.id, intents.gearItemId))
      .leftJoin(assignee, eq(assignee.id, deliveries.assignedTo))
      .where(where)
      .orderBy(asc(intents.paidAt), asc(deliveries.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(deliveries).innerJoin(intents, eq(intents.id, deliveries.intentId)).where(where),
  ]);
  const entries = rows.map((r) => ({
    ...r,
    paidAt: r.paidAt ?? r.nextAttemptAt,
    waitedMs: Number(r.waitedMs ?? 0),
    recipientSteamId: r.recipientSteamId ?? (r.inviteUrl ? (inviteRecipient(r.inviteUrl)?.steamId64 ?? null) : null),
  }));
  return { entries, total: counted?.n ?? 0 };
}
