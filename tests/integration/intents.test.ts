import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DomainError } from "@/lib/errors";
import { asAnswered, refusal as serviceRefusal } from "@/tests/support/refusal";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { createApiToken, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerAccount } from "@/tests/support/partners";

const ORIGIN = "http://store.test";
let t: TestDatabase;
let token: AuthToken;

beforeAll(async () => {
  t = await createTestDatabase();
  // A partner: these tests race more reservations than a shopper may hold (lib/services/holds.ts).
  const userId = await partnerAccount(t.db, "integration@example.com");
  const created = await createApiToken(t.db, { userId, name: "integration", scopes: ["gifts:verify", "gear:create"] });
  token = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
});

afterAll(() => t?.close());

const gearBody = (item: string, extra: Record<string, unknown> = {}) =>
  gearIntentRequestSchema.parse({ account: "76561198000000001", platform: "730", item, email: "g@example.com", ...extra });

const giftBody = (code?: string) =>
  giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
    email: "g@example.com",
    fee: "excluded",
    ...(code === undefined ? {} : { code }),
  });

async function settle<T>(tasks: Promise<T>[]) {
  const results = await Promise.allSettled(tasks);
  const ok = results.filter((r) => r.status === "fulfilled");
  const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  return { ok, failed };
}

/** The database's own refusal (drizzle wraps it): SQLSTATE, constraint and message. */
async function refusal(query: ReturnType<typeof sql>): Promise<string> {
  try {
    await t.db.execute(query);
  } catch (err) {
    const cause = ((err as { cause?: unknown }).cause ?? err) as { code?: string; constraint?: string; message: string };
    return `${cause.code} ${cause.constraint ?? "-"} ${cause.message}`;
  }
  throw new Error("the database accepted the statement");
}

async function one<T extends Record<string, unknown>>(query: ReturnType<typeof sql>): Promise<T> {
  const { rows } = await t.db.execute(query);
  return rows[0] as T;
}

describe("gear reservations", () => {
  it("hold exactly the stock when many requests race, and the rest get 409", async () => {
    await t.db.execute(sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'scarce', 'Scarce', 5000, 7)`);
    const { ok, failed } = await settle(Array.from({ length: 120 }, () => reserveGear(t.db, token, gearBody("scarce"), ORIGIN)));
    expect(ok).toHaveLength(7);
    expect(failed).toHaveLength(113);
    for (const err of failed)
      expect(asAnswered(err as DomainError)).toMatchObject({ status: 409, reason: "out_of_stock", message: "item scarce is out of stock" });
    const { n } = await one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM intents WHERE gear_item_id = (SELECT id FROM gear_items WHERE item = 'scarce')`,
    );
    expect(n).toBe(7);
  });

  it("stop holding stock once their intent has expired", async () => {
    await t.db.execute(sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'single', 'Single', 5000, 1)`);
    const first = await reserveGear(t.db, token, gearBody("single"), ORIGIN);
    await expect(serviceRefusal(reserveGear(t.db, token, gearBody("single"), ORIGIN))).resolves.toMatchObject({
      status: 409,
      reason: "out_of_stock",
    });
    await t.db.execute(sql`UPDATE intents SET expires_at = now() - interval '1 second' WHERE id = ${first.intentId}`);
    const second = await reserveGear(t.db, token, gearBody("single"), ORIGIN);
    expect(second.intentId).not.toBe(first.intentId);
  });

  it("roll back the reservation when the promo code is refused", async () => {
    await t.db.execute(
      sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'promo-item', 'Promo Item', 5000, 1)`,
    );
    await expect(serviceRefusal(reserveGear(t.db, token, gearBody("promo-item", { code: "EXPIRED2025" }), ORIGIN))).resolves.toMatchObject({
      reason: "promo_code_expired",
    });
    const ok = await reserveGear(t.db, token, gearBody("promo-item"), ORIGIN);
    expect(ok.verified).toBe(true);
  });

  it("are refused by the database itself beyond the stock, whatever inserts them", async () => {
    await t.db.execute(sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'raw', 'Raw', 5000, 1)`);
    const insert = sql`INSERT INTO intents (kind, token_id, app_id, gear_item_id, account, email, fee_mode,
                         intent_amount, discount_amount, fee_amount, payment_amount, expires_at)
                       SELECT 'gear', ${token.id}, 730, id, '76561198000000001', 'x@y.z', 'excluded',
                         5000, 0, 250, 5250, now() + interval '15 minutes' FROM gear_items WHERE item = 'raw'`;
    await t.db.execute(insert);
    expect(await refusal(insert)).toMatch(/^GK409 - gear item \d+ is out of stock/);
  });

  it("are refused by the database if stock would go negative", async () => {
    expect(await refusal(sql`UPDATE gear_items SET stock = -1 WHERE item = 'ak47-redline'`)).toMatch(
      /^23514 gear_items_stock_not_negative/,
    );
  });
});

describe("intents from concurrent requests", () => {
  /** Counts the statements that insert intents while `work` runs. */
  async function countingInserts<T>(work: () => Promise<T>): Promise<{ result: T; inserts: number }> {
    const query = vi.spyOn(t.db.$client, "query");
    try {
      const result = await work();
      const inserts = query.mock.calls.filter(([q]) =>
        /^INSERT INTO "intents"/.test(typeof q === "string" ? q : (q as { text: string }).text),
      ).length;
      return { result, inserts };
    } finally {
      query.mockRestore();
    }
  }

  it("are inserted together, fewer statements than requests, and every answer is a committed intent", async () => {
    const { result, inserts } = await countingInserts(() =>
      Promise.all(Array.from({ length: 40 }, () => verifyGift(t.db, token, giftBody(), ORIGIN))),
    );
    expect(new Set(result.map((r) => r.intentId)).size).toBe(40);
    expect(inserts).toBeGreaterThan(1);
    expect(inserts).toBeLessThan(20);
    const rows = await t.db.execute<{ id: string; payment_amount: number; expires_at: Date }>(
      sql`SELECT id, payment_amount, expires_at FROM intents WHERE id IN ${sql.raw(`('${result.map((r) => r.intentId).join("','")}')`)}`,
    );
    expect(rows.rows).toHaveLength(40);
    for (const answer of result) {
      const row = rows.rows.find((r) => r.id === answer.intentId)!;
      expect(row.payment_amount).toBe(answer.paymentAmount);
      expect(new Date(row.expires_at).toISOString()).toBe(answer.expiresAt);
    }
  });

  it("keep each request's own answer when another request in the same batch is refused", async () => {
    await t.db.execute(
      sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'plenty', 'Plenty', 5000, 100), (730, 'lonely', 'Lonely', 5000, 1)`,
    );
    const items = ["plenty", "lonely", "plenty", "lonely", "plenty", "plenty", "lonely", "plenty", "plenty", "plenty", "plenty", "plenty"];
    const { result } = await countingInserts(() =>
      Promise.allSettled(items.map((item) => reserveGear(t.db, token, gearBody(item), ORIGIN).then(() => item))),
    );
    const held = result.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const refused = result.flatMap((r) => (r.status === "rejected" ? [asAnswered(r.reason as DomainError)] : []));
    expect(held.filter((i) => i === "plenty")).toHaveLength(9);
    expect(held.filter((i) => i === "lonely")).toHaveLength(1);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r).toMatchObject({ status: 409, reason: "out_of_stock", message: "item lonely is out of stock" });
    const { n } = await one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM intents WHERE gear_item_id IN (SELECT id FROM gear_items WHERE item IN ('plenty', 'lonely'))`,
    );
    expect(n).toBe(10);
  });
});

describe("promo code use limits", () => {
  it("let exactly max_uses intents through when requests race", async () => {
    const { ok, failed } = await settle(Array.from({ length: 40 }, () => verifyGift(t.db, token, giftBody("LIMITED5"), ORIGIN)));
    expect(ok).toHaveLength(5);
    expect(failed).toHaveLength(35);
    for (const err of failed)
      expect(asAnswered(err as DomainError)).toMatchObject({
        status: 400,
        reason: "promo_code_used_up",
        message: "promo code LIMITED5 has reached its usage limit",
      });
    const promo = await one<{ uses: number; intents: number }>(
      sql`SELECT p.uses, (SELECT count(*)::int FROM intents i WHERE i.promo_code_id = p.id) AS intents
          FROM promo_codes p WHERE p.code = 'LIMITED5'`,
    );
    expect(promo).toEqual({ uses: 5, intents: 5 });
  });

  it("are enforced by the database too", async () => {
    expect(await refusal(sql`UPDATE promo_codes SET uses = max_uses + 1 WHERE code = 'USEDUP'`)).toMatch(
      /^23514 promo_codes_uses_within_limit/,
    );
  });
});

describe("database constraints", () => {
  it("keep slugs unique and derived from the appId", async () => {
    const { slug } = await one<{ slug: string }>(sql`SELECT slug FROM games WHERE app_id = 620`);
    expect(slug).toBe("store-620");
    expect(
      await refusal(sql`INSERT INTO games (app_id, slug, title, short_description, sort_rank) VALUES (621, 'store-620', 'x', 'y', 1)`),
    ).toMatch(/^428C9 - cannot insert a non-DEFAULT value into column "slug"/);
  });

  it("keep intents tied to real games and packages", async () => {
    expect(
      await refusal(sql`INSERT INTO intents (kind, token_id, app_id, package_id, gift_region, invite_url, email, fee_mode,
                         intent_amount, discount_amount, fee_amount, payment_amount, expires_at)
                       VALUES ('gift', ${token.id}, 620, 424242, 'RU', 'https://s.team/p/a/BBBBBBBB', 'x@y.z', 'included',
                         100, 0, 0, 100, now())`),
    ).toMatch(/^23503 intents_package_id_packages_package_id_fk/);
  });

  it("keep token hashes unique", async () => {
    expect(
      await refusal(sql`INSERT INTO api_tokens (user_id, name, prefix, token_hash, scopes)
                       SELECT user_id, 'copy', prefix, token_hash, scopes FROM api_tokens LIMIT 1`),
    ).toMatch(/^23505 api_tokens_hash_key/);
  });
});
