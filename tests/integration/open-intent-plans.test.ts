import { sql, type SQL } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, createPool } from "@/lib/db/client";
import { gearStockAdjustSchema } from "@/lib/schemas/admin-catalog";
import { gearIntentRequestSchema, gearItemsQuerySchema, gearQuoteRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { adjustGearStock, listGearStock } from "@/lib/services/admin-gear";
import { listGearItems, quoteGear, reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { clientKeyOf } from "@/lib/services/holds";
import { expireDueIntents } from "@/lib/services/intent-lifecycle";
import { authenticateToken, createApiToken, ensureUser, issueStorefrontToken, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerToken } from "@/tests/support/partners";

// The queries that count a gear item's or a holder's open intents (the stock guard's trigger, the
// gear list and quote, the back office's stock page, the hold caps) must find them through the
// index that starts with the item or the holder, even when the planner's statistics predate a burst
// of new open intents (a sale: autovacuum analyses after 10% of the table changes). Asked for
// "expires_at > now()", a planner whose last ANALYZE saw no unexpired intent estimates one row
// there and walks the sweeper's index (every open intent of the store) for each reservation; the
// benchmark found gear writes costing 2-4 ms of database CPU that way. auto_explain, sent to this
// client as notices, shows the plan of every statement, the trigger's included.

const ORIGIN = "http://store.test";
const HISTORY = 20_000;
const OPEN_GIFTS = 3000;
let t: TestDatabase;
let pool: pg.Pool;
let plans: string[] = [];
let itemId = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  const guest = await storefrontToken();
  await verifyGift(
    t.db,
    guest,
    giftVerifyRequestSchema.parse({
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: "p@example.com",
      fee: "excluded",
    }),
    ORIGIN,
  );
  // The store's history, all of it expired, is what the last ANALYZE saw: no unexpired open intent.
  await t.db.execute(sql`UPDATE intents SET expires_at = now() + interval '15 minutes'`);
  await t.db.execute(cloneGiftIntents(HISTORY, sql`'expired'`, sql`now() - interval '1 hour'`));
  await t.db.execute(sql`ANALYZE intents`);
  // The sale: thousands of open gift intents that the statistics do not know about.
  await t.db.execute(cloneGiftIntents(OPEN_GIFTS, sql`'requires_payment'`, sql`now() + interval '15 minutes'`));
  const { rows } = await t.db.execute<{ id: number }>(
    sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'plan-item', 'Plan item', 5000, 100) RETURNING id`,
  );
  itemId = rows[0]!.id;

  // One connection that reports every plan, nested statements included.
  pool = createPool(t.url, 1);
  pool.on("connect", (client) => {
    client.on("notice", (notice) => {
      if (notice.message?.includes("Query Text:")) plans.push(notice.message);
    });
  });
  const client = await pool.connect();
  try {
    await client.query("LOAD 'auto_explain'");
    await client.query(
      "SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = notice",
    );
  } finally {
    client.release();
  }
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await t?.close();
});

async function storefrontToken(): Promise<AuthToken> {
  const { token } = await issueStorefrontToken(t.db, null);
  const result = await authenticateToken(t.db, token);
  if (!result.ok) throw new Error("no storefront token");
  return result.token;
}

/** `n` copies of the one gift intent, in the status given, expiring (or expired) at `expiresAt`. */
const cloneGiftIntents = (n: number, status: SQL, expiresAt: SQL) => sql`
  INSERT INTO intents (kind, status, token_id, app_id, package_id, gift_region, invite_url, email, fee_mode,
                       intent_amount, discount_amount, fee_amount, payment_amount, expires_at, expired_at, locale)
  SELECT i.kind, ${status}, i.token_id, i.app_id, i.package_id, i.gift_region, i.invite_url, i.email, i.fee_mode,
         i.intent_amount, i.discount_amount, i.fee_amount, i.payment_amount, ${expiresAt},
         CASE WHEN ${status} = 'expired' THEN ${expiresAt} END, i.locale
  FROM (SELECT * FROM intents WHERE kind = 'gift' ORDER BY created_at LIMIT 1) i, generate_series(1, ${n})`;

/** The plans of what `run` sent that read the intents table. */
async function plansOf(run: () => Promise<unknown>): Promise<string[]> {
  plans = [];
  await run();
  return plans.filter((p) => /\bintents\b/.test(p.split("Query Text:")[1] ?? ""));
}

const SWEEPER_INDEX = "intents_unswept_idx";

/** `n` gear intents of one token, all past (paid, expired or refunded): a busy integration's history. */
const gearHistory = (tokenId: string, n: number) => sql`
  INSERT INTO intents (kind, status, token_id, app_id, gear_item_id, account, email, fee_mode,
                       intent_amount, discount_amount, fee_amount, payment_amount, expires_at, expired_at, locale)
  SELECT 'gear', 'expired', ${tokenId}, 730, ${itemId}, '76561198000000001', 'p@example.com', 'excluded',
         5000, 0, 250, 5250, now() - interval '1 hour', now() - interval '1 hour', 'ru'
  FROM generate_series(1, ${n})`;

describe("counting open intents when the statistics predate them", () => {
  it("the stock guard's trigger counts the item's own reservations, not every open intent", async () => {
    const db = createDb(pool);
    // A storefront token: the hold caps count the holder's open intents too.
    const token = await storefrontToken();
    const found = await plansOf(() =>
      reserveGear(
        db,
        token,
        gearIntentRequestSchema.parse({ account: "76561198000000001", platform: "730", item: "plan-item", email: "p@example.com" }),
        ORIGIN,
        clientKeyOf("198.51.100.7"),
      ),
    );
    const trigger = found.filter((p) => p.includes("count(*)") && p.includes("gear_item_id = NEW.gear_item_id"));
    expect(trigger, found.join("\n\n")).toHaveLength(1);
    for (const plan of found) expect(plan).not.toContain(SWEEPER_INDEX);
    expect(trigger[0]).toContain("intents_live_gear_idx");
  });

  it("the gear list, the quote and the back office's stock page use the item's index", async () => {
    const db = createDb(pool);
    const found = await plansOf(async () => {
      await listGearItems(db, gearItemsQuerySchema.parse({ platform: "730" }));
      await quoteGear(db, gearQuoteRequestSchema.parse({ platform: "730", item: "plan-item" }));
      await listGearStock(db, { platform: 730, page: 1, pageSize: 50 });
      await adjustGearStock(db, { userId: null, label: "cli" }, gearStockAdjustSchema.parse({ itemId, mode: "add", amount: "20" }));
    });
    expect(found.length).toBeGreaterThan(0);
    for (const plan of found) expect(plan).not.toContain(SWEEPER_INDEX);
  });

  it("the caps read an account's and a partner's open holds from their counts, not their intents", async () => {
    const db = createDb(pool);
    const partner = (await partnerToken(t.db, "plans-partner@example.com", { scopes: ["gear:create"] })).auth;
    const shopperId = await ensureUser(t.db, "plans-shopper@example.com");
    const created = await createApiToken(t.db, { userId: shopperId, name: "self-service", scopes: ["gear:create"] });
    const shopper: AuthToken = {
      id: created.id,
      userId: shopperId,
      name: created.name,
      scopes: created.scopes,
      purpose: "api",
      guest: false,
    };
    await t.db.execute(gearHistory(partner.id, HISTORY));
    await t.db.execute(gearHistory(shopper.id, HISTORY / 4));
    await t.db.execute(sql`ANALYZE intents`);
    const body = gearIntentRequestSchema.parse({
      account: "76561198000000001",
      platform: "730",
      item: "plan-item",
      email: "p@example.com",
    });
    const found = await plansOf(async () => {
      await reserveGear(db, partner, body, ORIGIN, clientKeyOf("198.51.100.8"));
      await reserveGear(db, shopper, body, ORIGIN, clientKeyOf("198.51.100.9"));
    });
    const sums = plans.filter((p) => p.includes("FROM open_hold_counts o"));
    expect(sums, plans.join("\n\n")).toHaveLength(2);
    for (const plan of sums) expect(plan).toContain("open_hold_counts_user_id_bucket_pk");
    // Nothing walks a token's history or every open intent of the store.
    for (const plan of found) {
      expect(plan).not.toContain("intents_token_idx");
      expect(plan).not.toContain(SWEEPER_INDEX);
    }
    // The shopper's address is counted from its intents, through the address's own index.
    const address = found.filter((p) => p.includes("i.client_key = c"));
    expect(address, found.join("\n\n")).toHaveLength(1);
    expect(address[0]).toContain("intents_open_holds_client_idx");
  });

  it("the sweeper still finds what has expired through its own index", async () => {
    await t.db.execute(sql`UPDATE intents SET expires_at = now() - interval '1 second' WHERE id IN (
      SELECT id FROM intents WHERE status = 'requires_payment' AND kind = 'gift' LIMIT 10)`);
    let swept = 0;
    const found = await plansOf(async () => {
      swept = await expireDueIntents(createDb(pool), { limit: 500, origin: ORIGIN });
    });
    expect(swept).toBe(10);
    expect(found.find((p) => p.includes("expires_at <= now()"))).toContain(SWEEPER_INDEX);
  });
});
