import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { createAccountApiToken, countActiveApiTokens, MAX_ACTIVE_API_TOKENS } from "@/lib/services/account";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { clientKeyOf } from "@/lib/services/holds";
import { payIntent } from "@/lib/services/intent-lifecycle";
import { authenticateToken, createApiToken, ensureUser, issueStorefrontToken, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

// Hoarding without paying: the store's own pages may hold only so many gear units and promo-code
// uses in unpaid intents at once, per browser session, per account and per client address, and a
// burst of concurrent requests never gets past a cap. Partners' API tokens are not capped.

const ORIGIN = "http://store.test";
let t: TestDatabase;
let item = 0;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

async function guestToken(): Promise<AuthToken> {
  const { token } = await issueStorefrontToken(t.db, null);
  const result = await authenticateToken(t.db, token);
  if (!result.ok) throw new Error("no guest token");
  return result.token;
}

async function freshItem(stock = 100): Promise<string> {
  const name = `hold-item-${++item}`;
  await t.db.execute(
    sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, ${name}, ${name}, 5000, ${stock})`,
  );
  return name;
}

const gear = (token: AuthToken, itemName: string, address: string) =>
  reserveGear(
    t.db,
    token,
    gearIntentRequestSchema.parse({ account: "76561198000000001", platform: "730", item: itemName, email: "h@example.com" }),
    ORIGIN,
    clientKeyOf(address),
  );

async function outcomes(tasks: Promise<unknown>[]) {
  const results = await Promise.allSettled(tasks);
  const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
  for (const err of refused) expect(err).toBeInstanceOf(DomainError);
  return { ok: results.filter((r) => r.status === "fulfilled").length, refused: refused as DomainError[] };
}

describe("open holds of the store's own pages", () => {
  it("cap one guest session: of 20 concurrent reservations exactly the cap get through", async () => {
    const [guest, name] = [await guestToken(), await freshItem()];
    const { ok, refused } = await outcomes(Array.from({ length: 20 }, () => gear(guest, name, "198.51.100.1")));
    expect(ok).toBe(env.HOLD_LIMIT_PER_SESSION);
    expect(refused.map((e) => e.reason)).toEqual(Array(20 - env.HOLD_LIMIT_PER_SESSION).fill("hold_limit_reached"));
    expect(refused[0]!.details).toEqual({ scope: "session", max: env.HOLD_LIMIT_PER_SESSION });
  });

  it("cap one address across many guest sessions", async () => {
    const name = await freshItem();
    const guests = await Promise.all(Array.from({ length: 6 }, guestToken));
    const { ok, refused } = await outcomes(guests.flatMap((g) => Array.from({ length: 3 }, () => gear(g, name, "198.51.100.2"))));
    expect(ok).toBe(env.HOLD_LIMIT_PER_ADDRESS);
    expect(refused.some((e) => e.reason === "hold_limit_reached" && (e.details as { scope: string }).scope === "address")).toBe(true);
  });

  it("count promo-code holds on gifts too, and free a slot once an intent is paid", async () => {
    const guest = await guestToken();
    const gift = () =>
      verifyGift(
        t.db,
        guest,
        giftVerifyRequestSchema.parse({
          item: "620",
          target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
          email: "h@example.com",
          fee: "excluded",
          code: "WELCOME10",
        }),
        ORIGIN,
        clientKeyOf("198.51.100.3"),
      );
    const made = [];
    for (let i = 0; i < env.HOLD_LIMIT_PER_SESSION; i++) made.push(await gift());
    await expect(gift()).rejects.toMatchObject({ reason: "hold_limit_reached" });
    await payIntent(t.db, made[0]!.intentId, { provider: "sandbox", providerPaymentId: "p1", origin: ORIGIN });
    await expect(gift()).resolves.toMatchObject({ code: 201 });
  });

  it("cap a signed-in shopper's account across its sessions", async () => {
    const userId = await ensureUser(t.db, "holder@example.com");
    const sessions: AuthToken[] = [];
    for (let i = 0; i < 3; i++) {
      const { token } = await issueStorefrontToken(t.db, userId);
      const result = await authenticateToken(t.db, token);
      if (result.ok) sessions.push(result.token);
    }
    const name = await freshItem();
    const { ok } = await outcomes(sessions.flatMap((s, i) => Array.from({ length: 4 }, () => gear(s, name, `198.51.100.${10 + i}`))));
    expect(ok).toBe(env.HOLD_LIMIT_PER_ACCOUNT);
  });

  it("leave partners' API tokens uncapped", async () => {
    const userId = await ensureUser(t.db, "partner-holds@example.com");
    const created = await createApiToken(t.db, { userId, name: "partner", scopes: ["gear:create"] });
    const partner: AuthToken = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
    const name = await freshItem();
    const { ok } = await outcomes(Array.from({ length: 12 }, () => gear(partner, name, "198.51.100.4")));
    expect(ok).toBe(12);
  });
});

describe("the cap of active API tokens", () => {
  it("holds under 120 concurrent creations", async () => {
    const userId = await ensureUser(t.db, "token-cap@example.com");
    const { ok, refused } = await outcomes(
      Array.from({ length: 120 }, (_, i) =>
        createAccountApiToken(t.db, { userId, name: `t${i}`, scopes: ["catalog:read"], expiresAt: null }),
      ),
    );
    expect(ok).toBe(MAX_ACTIVE_API_TOKENS);
    expect(new Set(refused.map((e) => e.reason))).toEqual(new Set(["token_limit_reached"]));
    expect(await countActiveApiTokens(t.db, userId)).toBe(MAX_ACTIVE_API_TOKENS);
  });
});

describe("amounts that would overflow", () => {
  it("are refused by the database: no price over the store's bound", async () => {
    await expect(
      t.db.execute(sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'too-dear', 'x', 2147483000, 1)`),
    ).rejects.toMatchObject({
      cause: { code: "23514", constraint: "gear_items_price_bounded" },
    });
    await expect(
      t.db.execute(
        sql`UPDATE packages SET price_initial = 2147483000, price_final = 2147483000 WHERE package_id = (SELECT min(package_id) FROM packages)`,
      ),
    ).rejects.toMatchObject({
      cause: { code: "23514", constraint: "packages_price_bounded" },
    });
  });
});
