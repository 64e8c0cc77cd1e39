import "server-only";
import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/client";
import { batchKeys, coalesced, inKeyOrder } from "@/lib/db/coalesce";
import { games, gearItems } from "@/lib/db/schema";
import type { GearIntentRequest, GearIntentResponse, GearItemsQuery, GearItemsResponse, GearQuoteRequest } from "@/lib/schemas/gear";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
import { DomainError } from "@/lib/errors";
import { CURRENCY } from "@/lib/money";
import { UNEXPIRED_COUNT } from "./holds";
import type { AuthToken } from "./tokens";
import { createIntent, intentCreated, quoteIntent, type CreatedIntent, type PurchaseQuote } from "./intents";

/**
 * The live reservations of a gear item, as a scalar subquery: unpaid gear intents that have not
 * expired. They hold stock; nothing else does (drizzle/0002). Counted through the item's own index
 * (intents_live_gear_idx): see UNEXPIRED_COUNT.
 */
export const liveReservations = (itemId: SQL | number) =>
  sql<number>`(SELECT ${UNEXPIRED_COUNT} FROM intents i WHERE i.gear_item_id = ${itemId} AND i.status = 'requires_payment')`;

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
  const item = await findGearItem(db, input.platform, input.item);
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

interface GearItemKey {
  platform: number;
  item: string;
}

interface GearItemRow extends Record<string, unknown> {
  id: number;
  title: string;
  price: number;
  stock: number;
}

/** Each key's item, if the store sells it (its platform shown), in one round trip for all of them. */
async function gearItemsFor(db: DbExecutor, keys: GearItemKey[]): Promise<(GearItemRow | undefined)[]> {
  const asked = batchKeys(keys);
  const { rows } = await db.execute<GearItemRow & { i: number }>(
    sql`SELECT k.i, gi.id, gi.title, gi.price, gi.stock
        FROM jsonb_to_recordset(${asked}::jsonb) AS k(i int, platform int, item text)
        JOIN ${gearItems} gi ON gi.platform_app_id = k.platform AND gi.item = k.item
        JOIN ${games} g ON g.app_id = gi.platform_app_id AND NOT g.hidden`,
  );
  return inKeyOrder(keys.length, rows);
}

/** Concurrent reservations' and quotes' lookups, sent together (lib/db/coalesce.ts). */
const gearItemLookup = coalesced(gearItemsFor);

/** The item to price; an unknown platform or item leaves nothing to price: thrown. */
async function findGearItem(db: DbExecutor, platform: number, itemName: string) {
  const item = await gearItemLookup(db, { platform, item: itemName });
  if (item) return item;
  // A game staff hid sells no gear: its platform answers as one the store does not have.
  const [known] = await db
    .select({ appId: games.appId })
    .from(games)
    .where(and(eq(games.appId, platform), eq(games.hidden, false)));
  throw known
    ? new DomainError("item_not_found", { platform, item: itemName }, "item")
    : new DomainError("platform_not_found", { platform }, "platform");
}

/**
 * What reserveGear would charge for this body and every refusal it would meet, reserving nothing.
 * Stock is read as the reservation's trigger counts it (stock minus live reservations); the
 * trigger, not this read, is what guards the unit when the intent is created.
 */
export async function quoteGear(db: DbExecutor, input: GearQuoteRequest): Promise<PurchaseQuote> {
  const item = await findGearItem(db, input.platform, input.item);
  const { rows } = await db.execute<{ held: number }>(sql`SELECT ${liveReservations(item.id)} AS held`);
  const available = item.stock - (rows[0]?.held ?? 0);
  return quoteIntent(db, {
    price: item.price,
    feeMode: input.fee,
    promoCode: input.code,
    promoTarget: { kind: "gear", appId: input.platform },
    after: available > 0 ? [] : [new DomainError("out_of_stock", { item: input.item }, "item")],
  });
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
        reserved: liveReservations(sql`${gearItems.id}`),
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
