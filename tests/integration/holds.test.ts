import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { createAccountApiToken, countActiveApiTokens, MAX_ACTIVE_API_TOKENS } from "@/lib/services/account";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { clientKeyOf } from "@/lib/services/holds";
import { cancelIntent, expireDueIntents, payIntent } from "@/lib/services/intent-lifecycle";
import { setPartnerHoldCap } from "@/lib/services/partners";
import { CLI_ACTOR } from "@/lib/services/audit";
import { authenticateToken, createApiToken, ensureUser, issueStorefrontToken, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerAccount } from "@/tests/support/partners";

// Hoarding without paying: nobody may hold more than so many gear units and promo-code uses in
// unpaid intents at once. Guests per browser session and client address; an account across its
// storefront sessions and self-service API tokens together, and per client address; a partner
// across all its tokens, by its own cap. A burst of concurrent requests never gets past a cap.

// A partner default small enough to reach in a test; read when the app's modules load.
vi.hoisted(() => {
  process.env.HOLD_LIMIT_PER_PARTNER = "8";
});

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
    // Three codes fill the session; after a payment, the paid code may be used again.
    const codes = ["WELCOME10", "MINUS300", "PORTAL50", "WELCOME10", "WELCOME10"];
    const gift = (code = codes.shift()) =>
      verifyGift(
        t.db,
        guest,
        giftVerifyRequestSchema.parse({
          item: "620",
          target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
          email: "h@example.com",
          fee: "excluded",
          code,
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
});

async function apiToken(email: string, scopes: AuthToken["scopes"] = ["gear:create", "gifts:verify"]): Promise<AuthToken> {
  const userId = await ensureUser(t.db, email);
  const created = await createApiToken(t.db, { userId, name: email, scopes });
  return { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
}

async function signedInSession(userId: string): Promise<AuthToken> {
  const result = await authenticateToken(t.db, (await issueStorefrontToken(t.db, userId)).token);
  if (!result.ok) throw new Error("no storefront token");
  return result.token;
}

const limitedGift = (token: AuthToken, address: string, code = "LIMITED5") =>
  verifyGift(
    t.db,
    token,
    giftVerifyRequestSchema.parse({
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: "h@example.com",
      fee: "excluded",
      code,
    }),
    ORIGIN,
    clientKeyOf(address),
  );

describe("open holds of self-service API tokens (the second attack of issue 24)", () => {
  it("a new account's gear:create token no longer takes all ten units of an item: guests still get one", async () => {
    const [attacker, name] = [await apiToken("hoarder@example.com"), await freshItem(10)];
    const { ok, refused } = await outcomes(Array.from({ length: 10 }, () => gear(attacker, name, "203.0.113.1")));
    expect(ok).toBe(env.HOLD_LIMIT_PER_ACCOUNT);
    expect(refused.map((e) => e.reason)).toEqual(Array(10 - env.HOLD_LIMIT_PER_ACCOUNT).fill("hold_limit_reached"));
    expect(refused[0]!.details).toEqual({ scope: "account", max: env.HOLD_LIMIT_PER_ACCOUNT });
    await expect(gear(await guestToken(), name, "198.51.100.200")).resolves.toMatchObject({ code: 201 });
  });

  it("nor all five uses of LIMITED5: one open use of a code per account, and guests still get the rest", async () => {
    const attacker = await apiToken("code-hoarder@example.com");
    const { ok, refused } = await outcomes(Array.from({ length: 5 }, () => limitedGift(attacker, "203.0.113.2")));
    expect(ok).toBe(1);
    expect(new Set(refused.map((e) => e.reason))).toEqual(new Set(["promo_code_held"]));
    await expect(limitedGift(await guestToken(), "198.51.100.201")).resolves.toMatchObject({ code: 201 });
  });

  it("20 concurrent reservations with one self-service token hold exactly the account's cap", async () => {
    const [token, name] = [await apiToken("burst-one@example.com"), await freshItem()];
    const { ok, refused } = await outcomes(Array.from({ length: 20 }, () => gear(token, name, "203.0.113.3")));
    expect(ok).toBe(env.HOLD_LIMIT_PER_ACCOUNT);
    expect(new Set(refused.map((e) => e.reason))).toEqual(new Set(["hold_limit_reached"]));
  });

  it("two self-service tokens and a storefront session of one account share its cap", async () => {
    const first = await apiToken("burst-three@example.com");
    const second = await apiToken("burst-three@example.com");
    const session = await signedInSession(first.userId);
    const name = await freshItem();
    const { ok } = await outcomes(
      [first, second, session].flatMap((token, i) => Array.from({ length: 7 }, () => gear(token, name, `203.0.113.${10 + i}`))),
    );
    expect(ok).toBe(env.HOLD_LIMIT_PER_ACCOUNT);
    const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM intents i
      JOIN api_tokens k ON k.id = i.token_id WHERE k.user_id = ${first.userId} AND i.status = 'requires_payment'`);
    expect(rows[0]!.n).toBe(env.HOLD_LIMIT_PER_ACCOUNT);
  });

  it("self-service tokens of several accounts from one address share the address's cap", async () => {
    const tokens = await Promise.all([1, 2, 3].map((i) => apiToken(`same-address-${i}@example.com`)));
    const name = await freshItem();
    const { ok, refused } = await outcomes(tokens.flatMap((token) => Array.from({ length: 6 }, () => gear(token, name, "203.0.113.20"))));
    expect(ok).toBe(env.HOLD_LIMIT_PER_ADDRESS);
    expect(refused.some((e) => (e.details as { scope: string }).scope === "address")).toBe(true);
  });
});

describe("an account's count of open holds (open_hold_counts)", () => {
  const counted = async (userId: string) =>
    Number(
      (
        await t.db.execute<{ n: number }>(
          sql`SELECT coalesce(sum(n), 0)::int AS n FROM open_hold_counts WHERE user_id = ${userId} AND bucket > now()`,
        )
      ).rows[0]!.n,
    );

  it("follows every move of the account's holds, and a place comes back when one is paid, declined or expires", async () => {
    const [token, name] = [await apiToken("counted@example.com"), await freshItem()];
    const made = [];
    for (let i = 0; i < env.HOLD_LIMIT_PER_ACCOUNT; i++) made.push((await gear(token, name, "203.0.113.60")).intentId);
    expect(await counted(token.userId)).toBe(env.HOLD_LIMIT_PER_ACCOUNT);
    await expect(gear(token, name, "203.0.113.60")).rejects.toMatchObject({ reason: "hold_limit_reached" });

    await payIntent(t.db, made[0]!, { provider: "sandbox", providerPaymentId: "p-counted", origin: ORIGIN });
    await cancelIntent(t.db, made[1]!, ORIGIN);
    await t.db.execute(sql`UPDATE intents SET expires_at = now() - interval '1 minute' WHERE id = ${made[2]!}`);
    expect(await counted(token.userId)).toBe(env.HOLD_LIMIT_PER_ACCOUNT - 3);
    expect((await outcomes(Array.from({ length: 5 }, () => gear(token, name, "203.0.113.61")))).ok).toBe(3);
    expect(await counted(token.userId)).toBe(env.HOLD_LIMIT_PER_ACCOUNT);
    // The sweep records the expiry: nothing counted twice, nothing taken twice.
    await expireDueIntents(t.db, { origin: ORIGIN });
    expect(await counted(token.userId)).toBe(env.HOLD_LIMIT_PER_ACCOUNT);
  });

  it("keeps no count for guests, whom their sessions cap", async () => {
    const guest = await guestToken();
    await gear(guest, await freshItem(), "203.0.113.62");
    expect(await counted(guest.userId)).toBe(0);
  });
});

describe("open holds of partners", () => {
  it("a partner's tokens together hold at most the documented default, from any one address", async () => {
    const userId = await partnerAccount(t.db, "holds-partner@example.com");
    const [first, second] = [await apiToken("holds-partner@example.com"), await apiToken("holds-partner@example.com")];
    expect([first.userId, second.userId]).toEqual([userId, userId]);
    const name = await freshItem();
    const { ok, refused } = await outcomes(
      [first, second].flatMap((token) => Array.from({ length: 10 }, () => gear(token, name, "203.0.113.30"))),
    );
    expect(env.HOLD_LIMIT_PER_PARTNER).toBe(8);
    // More than a client address may hold: a partner serves many shoppers from its own servers.
    expect(env.HOLD_LIMIT_PER_PARTNER).toBeLessThan(env.HOLD_LIMIT_PER_ADDRESS);
    expect(ok).toBe(env.HOLD_LIMIT_PER_PARTNER);
    expect(refused.map((e) => e.details)).toContainEqual({ scope: "partner", max: env.HOLD_LIMIT_PER_PARTNER });
  });

  it("a partner's own cap replaces the default, and a changed cap takes effect at once", async () => {
    const userId = await partnerAccount(t.db, "capped-partner@example.com");
    await setPartnerHoldCap(t.db, CLI_ACTOR, userId, 14);
    const token = await apiToken("capped-partner@example.com");
    const name = await freshItem();
    const burst = (n: number) => outcomes(Array.from({ length: n }, (_, i) => gear(token, name, `203.0.113.${40 + (i % 3)}`)));
    expect((await burst(20)).ok).toBe(14);
    await setPartnerHoldCap(t.db, CLI_ACTOR, userId, 17);
    expect((await burst(20)).ok).toBe(3);
    await setPartnerHoldCap(t.db, CLI_ACTOR, userId, null);
    expect((await burst(5)).ok).toBe(0);
  });

  it("a partner may hold many uses of one code, for many shoppers", async () => {
    await partnerAccount(t.db, "code-partner@example.com");
    const token = await apiToken("code-partner@example.com");
    const { ok } = await outcomes(Array.from({ length: 3 }, () => limitedGift(token, "203.0.113.50", "WELCOME10")));
    expect(ok).toBe(3);
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
