import "server-only";
import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { games, gearItems } from "@/lib/db/schema";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
import { DomainError } from "@/lib/errors";
import { MAX_GEAR_STOCK, type GearItemCreate, type GearStockAdjust } from "@/lib/schemas/admin-catalog";
import { recordAudit, type Actor } from "./audit";
import { liveReservations } from "./gear";

// The back office's gear stock (/admin/gear). `stock` is units on hand: a live reservation (an
// unpaid, unexpired gear intent) holds one of them, and payment takes it away for good (drizzle/0003).

export interface GearStockRow {
  id: number;
  platformAppId: number;
  platformTitle: string;
  item: string;
  title: string;
  price: number;
  stock: number;
  /** Units live reservations hold. */
  reserved: number;
  /** Paid or delivered units. */
  sold: number;
}

export interface GearStockFilter {
  platform?: number;
  /** Part of the item's key or title. */
  q?: string;
  page: number;
  pageSize: number;
}

interface StockRow extends Record<string, unknown> {
  id: number;
  platform_app_id: number;
  platform_title: string;
  item: string;
  title: string;
  price: number;
  stock: number;
  reserved: number;
  sold: number;
}

/** Items by platform, paged in the database, each with its held and sold units (both through partial indexes). */
export async function listGearStock(db: Database, filter: GearStockFilter): Promise<{ items: GearStockRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.platform !== undefined) conditions.push(sql`gi.platform_app_id = ${filter.platform}`);
  if (filter.q) {
    const like = `%${filter.q.replace(/[\\%_]/g, "\\$&")}%`;
    conditions.push(sql`(gi.item ILIKE ${like} OR gi.title ILIKE ${like})`);
  }
  const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  const [page, count] = await Promise.all([
    db.execute<StockRow>(sql`
      SELECT gi.id, gi.platform_app_id, g.title AS platform_title, gi.item, gi.title, gi.price, gi.stock,
             ${liveReservations(sql`gi.id`)} AS reserved,
             (SELECT count(*)::int FROM intents s WHERE s.gear_item_id = gi.id AND s.status IN ('paid', 'fulfilled')) AS sold
      FROM gear_items gi JOIN games g ON g.app_id = gi.platform_app_id
      ${where}
      ORDER BY g.title, gi.platform_app_id, gi.id
      LIMIT ${filter.pageSize} OFFSET ${(filter.page - 1) * filter.pageSize}`),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM gear_items gi ${where}`),
  ]);
  return {
    total: count.rows[0]?.total ?? 0,
    items: page.rows.map((r) => ({
      id: r.id,
      platformAppId: r.platform_app_id,
      platformTitle: r.platform_title,
      item: r.item,
      title: r.title,
      price: r.price,
      stock: r.stock,
      reserved: r.reserved,
      sold: r.sold,
    })),
  };
}

/** The games that have gear, for the list's platform filter. */
export async function listGearPlatformChoices(db: Database): Promise<{ appId: number; title: string }[]> {
  return db
    .selectDistinct({ appId: games.appId, title: games.title })
    .from(gearItems)
    .innerJoin(games, eq(games.appId, gearItems.platformAppId))
    .orderBy(games.title, games.appId);
}

/**
 * Sets the stock, or adds to it (a negative amount takes away). The item's row is locked first, as
 * the reservation trigger locks it (drizzle/0002), so no reservation lands between the count of
 * held units and the write: the stock never falls below what unpaid orders hold, nor below 0, nor
 * rises past MAX_GEAR_STOCK, so an addition never overflows the integer column.
 */
export async function adjustGearStock(db: Database, actor: Actor, input: GearStockAdjust): Promise<{ stock: number; reserved: number }> {
  return db.transaction(async (tx) => {
    const [item] = await tx.select().from(gearItems).where(eq(gearItems.id, input.itemId)).for("update");
    if (!item) throw new DomainError("item_not_found", { platform: 0, item: String(input.itemId) }, "itemId");
    const { rows } = await tx.execute<{ held: number }>(sql`SELECT ${liveReservations(item.id)} AS held`);
    const reserved = rows[0]?.held ?? 0;
    const stock = input.mode === "set" ? input.amount : item.stock + input.amount;
    if (stock > MAX_GEAR_STOCK) {
      throw new DomainError("invalid_field", { message: `amount would make the stock ${stock}, more than ${MAX_GEAR_STOCK}` }, "amount");
    }
    if (stock < reserved) throw new DomainError("stock_below_reserved", { item: item.title, reserved }, "amount");
    await tx.update(gearItems).set({ stock }).where(eq(gearItems.id, item.id));
    await recordAudit(tx, actor, {
      action: "gear.stock",
      targetType: "gear_item",
      targetId: item.id,
      before: { stock: item.stock },
      after: { stock },
      note: input.mode === "add" ? `${input.amount >= 0 ? "+" : ""}${input.amount}` : null,
    });
    return { stock, reserved };
  });
}

export async function createGearItem(db: Database, actor: Actor, input: GearItemCreate): Promise<{ id: number }> {
  try {
    return await db.transaction(async (tx) => {
      const [platform] = await tx.select({ appId: games.appId }).from(games).where(eq(games.appId, input.platform));
      if (!platform) throw new DomainError("platform_not_found", { platform: input.platform }, "platform");
      const [row] = await tx
        .insert(gearItems)
        .values({ platformAppId: input.platform, item: input.item, title: input.title, price: input.price, stock: input.stock })
        .returning();
      await recordAudit(tx, actor, {
        action: "gear.create",
        targetType: "gear_item",
        targetId: row!.id,
        after: { platformAppId: row!.platformAppId, item: row!.item, title: row!.title, price: row!.price, stock: row!.stock },
      });
      return { id: row!.id };
    });
  } catch (err) {
    if (sqlStateOf(err) === SQLSTATE.uniqueViolation)
      throw new DomainError("gear_item_taken", { platform: input.platform, item: input.item }, "item");
    throw err;
  }
}
