import "server-only";
import { and, count, eq, sql } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/client";
import { games, gearItems } from "@/lib/db/schema";
import type { GearIntentRequest, GearIntentResponse, GearItemsQuery, GearItemsResponse } from "@/lib/schemas/gear";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
import { DomainError } from "@/lib/errors";
import { CURRENCY } from "@/lib/money";
import type { AuthToken } from "./tokens";
import { createIntent, intentCreated, type CreatedIntent } from "./intents";

/** Live reservations: unpaid gear intents that have not expired. They hold stock; nothing else does (see drizzle/0002). */
const liveReservations = (itemId: unknown) =>
  sql`SELECT count(*)::int FROM intents i
      WHERE i.gear_item_id = ${itemId} AND i.status = 'requires_payment' AND i.expires_at > now()`;

/**
 * Reserves one unit of a gear item for the gamer and records an intent. The database holds the
 * unit: the insert's trigger locks the item and refuses it when live reservations fill the stock,
 * so concurrent requests never hold more units than there are.
 */
export async function reserveGear(
  db: DbExecutor,
  token: AuthToken,
  input: GearIntentRequest,
  origin: string,
  /** The client address's hold key (lib/services/holds.ts), for the store's own pages. */
  clientKey: string | null = null,
): Promise<GearIntentResponse> {
  const [item] = await db
    .select({ id: gearItems.id, title: gearItems.title, price: gearItems.price })
    .from(gearItems)
    .innerJoin(games, and(eq(games.appId, gearItems.platformAppId), eq(games.hidden, false)))
    .where(and(eq(gearItems.platformAppId, input.platform), eq(gearItems.item, input.item)));
  if (!item) {
    // A game staff hid sells no gear: its platform answers as one the store does not have.
    const [platform] = await db
      .select({ appId: games.appId })
      .from(games)
      .where(and(eq(games.appId, input.platform), eq(games.hidden, false)));
    throw platform
      ? new DomainError("item_not_found", { platform: input.platform, item: input.item }, "item")
      : new DomainError("platform_not_found", { platform: input.platform }, "platform");
  }
  let intent: CreatedIntent;
  try {
    intent = await createIntent(db, {
      price: item.price,
      feeMode: input.fee,
      promoCode: input.code,
      promoTarget: { kind: "gear", appId: input.platform },
      holder: { token, clientKey },
      values: {
        kind: "gear",
        appId: input.platform,
        gearItemId: item.id,
        account: input.account,
        tradeLink: input.additionalFields?.tradeLink,
        storeId: input.additionalFields?.storeId,
        email: input.email,
        attribution: input.attribution,
        successUrl: input.successUrl,
        failureUrl: input.failureUrl,
        callbackUrl: input.callbackUrl,
        locale: input.locale,
      },
    });
  } catch (err) {
    if (sqlStateOf(err) === SQLSTATE.outOfStock) throw new DomainError("out_of_stock", { item: input.item }, "item");
    throw err;
  }
  return {
    ...intentCreated(intent, origin),
    verified: true,
    message: `${item.title} is reserved until ${intent.expiresAt.toISOString()}; pay before then to keep it`,
  };
}

export async function listGearItems(db: Database, query: GearItemsQuery): Promise<GearItemsResponse> {
  const shown = sql`NOT EXISTS (SELECT 1 FROM games h WHERE h.app_id = ${gearItems.platformAppId} AND h.hidden)`;
  const filter = query.platform === undefined ? shown : and(eq(gearItems.platformAppId, query.platform), shown);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        item: gearItems.item,
        title: gearItems.title,
        platform: gearItems.platformAppId,
        price: gearItems.price,
        stock: gearItems.stock,
        reserved: sql<number>`(${liveReservations(gearItems.id)})`,
      })
      .from(gearItems)
      .where(filter)
      .orderBy(gearItems.platformAppId, gearItems.id)
      .limit(query.limit)
      .offset(query.page * query.limit),
    db.select({ total: count() }).from(gearItems).where(filter),
  ]);
  return {
    items: rows.map((r) => ({
      item: r.item,
      title: r.title,
      platform: String(r.platform),
      price: { paymentAmount: r.price, paymentCurrency: CURRENCY },
      available: Math.max(0, r.stock - r.reserved),
    })),
    total: total?.total ?? 0,
  };
}

/** The games that have gear, for the store's gear page: appId as the API spells platforms, and the title. */
export async function listGearPlatforms(db: Database): Promise<{ platform: string; title: string }[]> {
  const rows = await db
    .selectDistinct({ appId: games.appId, title: games.title })
    .from(gearItems)
    .innerJoin(games, and(eq(games.appId, gearItems.platformAppId), eq(games.hidden, false)))
    .orderBy(games.title, games.appId);
  return rows.map((r) => ({ platform: String(r.appId), title: r.title }));
}
