import "server-only";
import { and, count, eq, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { games, gearItems } from "@/lib/db/schema";
import type { GearIntentRequest, GearIntentResponse, GearItemsQuery, GearItemsResponse } from "@/lib/schemas/gear";
import { CURRENCY } from "@/lib/money";
import { conflict, notFound } from "@/lib/api/errors";
import type { AuthToken } from "./tokens";
import { createIntent } from "./intents";

/** Live reservations: unpaid gear intents that have not expired. They hold stock; nothing else does. */
const liveReservations = (itemId: unknown) =>
  sql`SELECT count(*)::int FROM intents i
      WHERE i.gear_item_id = ${itemId} AND i.status = 'requires_payment' AND i.expires_at > now()`;

/**
 * Reserves one unit of a gear item for the gamer and records an intent.
 * The item row is locked first, so concurrent requests count reservations one at a time and
 * never hold more units than the stock.
 */
export async function reserveGear(db: Database, token: AuthToken, input: GearIntentRequest): Promise<GearIntentResponse> {
  return db.transaction(async (tx) => {
    const [item] = await tx
      .select({ id: gearItems.id, title: gearItems.title, price: gearItems.price, stock: gearItems.stock })
      .from(gearItems)
      .where(and(eq(gearItems.platformAppId, input.platform), eq(gearItems.item, input.item)))
      .for("update");
    if (!item) {
      const [platform] = await tx.select({ appId: games.appId }).from(games).where(eq(games.appId, input.platform));
      throw notFound(platform ? `item ${input.item} not found on platform ${input.platform}` : `platform ${input.platform} not found`);
    }
    // A separate statement after the lock: it sees every reservation committed before the lock was granted.
    const { rows } = await tx.execute<{ count: number }>(liveReservations(item.id));
    if ((rows[0]?.count ?? 0) >= item.stock) throw conflict(`item ${input.item} is out of stock`);

    const intent = await createIntent(tx, {
      price: item.price,
      feeMode: input.fee,
      promoCode: input.code,
      promoTarget: { kind: "gear", appId: input.platform },
      values: {
        kind: "gear",
        tokenId: token.id,
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
      },
    });
    return {
      code: 201,
      intentId: intent.id,
      verified: true,
      intentAmount: intent.quote.intentAmount,
      intentCurrency: CURRENCY,
      paymentAmount: intent.quote.paymentAmount,
      paymentCurrency: CURRENCY,
      message: `${item.title} is reserved until ${intent.expiresAt.toISOString()}; pay before then to keep it`,
    };
  });
}

export async function listGearItems(db: Database, query: GearItemsQuery): Promise<GearItemsResponse> {
  const filter = query.platform === undefined ? undefined : eq(gearItems.platformAppId, query.platform);
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
