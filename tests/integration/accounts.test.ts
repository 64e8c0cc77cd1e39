import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { countActiveApiTokens, listUserIntents } from "@/lib/services/account";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import {
  authenticateToken,
  createApiToken,
  ensureUser,
  issueStorefrontToken,
  listApiTokens,
  revokeApiToken,
  type AuthToken,
} from "@/lib/services/tokens";
import { findUserById, registerUser, verifyUserCredentials } from "@/lib/services/users";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

const ORIGIN = "https://store.example.com";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.close());

async function signUp(email: string, password = "correct horse battery") {
  const result = await registerUser(t.db, { email, password });
  if (!result.ok) throw new Error(`sign-up of ${email} refused: ${result.reason}`);
  return result.user;
}

async function authToken(token: string): Promise<AuthToken> {
  const result = await authenticateToken(t.db, token);
  if (!result.ok) throw new Error(`token refused: ${result.reason}`);
  return result.token;
}

describe("sign-up", () => {
  it("creates a user whose password is stored only as a scrypt hash", async () => {
    const user = await signUp("New.Shopper@Example.com");
    const { rows } = await t.db.execute<{ email: string; password_hash: string }>(
      sql`SELECT email, password_hash FROM users WHERE id = ${user.id}`,
    );
    expect(rows[0]?.email).toBe("New.Shopper@Example.com");
    expect(rows[0]?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(rows[0]?.password_hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", rows[0]!.password_hash)).toBe(true);
    expect(await findUserById(t.db, user.id)).toEqual({ id: user.id, email: "New.Shopper@Example.com", name: null });
  });

  it("refuses an e-mail already registered, in any letter case", async () => {
    await signUp("taken@example.com");
    expect(await registerUser(t.db, { email: "TAKEN@example.COM", password: "another password" })).toEqual({
      ok: false,
      reason: "email_taken",
    });
    const { rows } = await t.db.execute(sql`SELECT 1 FROM users WHERE lower(email) = 'taken@example.com'`);
    expect(rows).toHaveLength(1);
  });

  it("refuses to claim an owner the token CLI made (no password): that would hand over its tokens", async () => {
    await ensureUser(t.db, "cli-owner@example.com");
    expect(await registerUser(t.db, { email: "cli-owner@example.com", password: "i want those tokens" })).toEqual({
      ok: false,
      reason: "email_taken",
    });
  });

  it("lets exactly one of several simultaneous sign-ups of one address win", async () => {
    const results = await Promise.all(
      ["race@example.com", "Race@example.com", "RACE@example.com", "race@EXAMPLE.com"].map((email) =>
        registerUser(t.db, { email, password: "racing password" }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toHaveLength(3);
  });
});

describe("sign-in", () => {
  it("opens the account with the right password, in any letter case of the e-mail", async () => {
    const user = await signUp("signin@example.com", "my long password");
    expect(await verifyUserCredentials(t.db, { email: "SignIn@Example.com", password: "my long password" })).toEqual({
      id: user.id,
      email: "signin@example.com",
      name: null,
    });
  });

  it.each([
    ["a wrong password", "signin@example.com", "my long passworD"],
    ["an unknown e-mail", "nobody@example.com", "my long password"],
    ["an owner with no password", "guests@storefront.giftkey.invalid", "anything at all"],
  ])("refuses %s", async (_why, email, password) => {
    await ensureUser(t.db, "guests@storefront.giftkey.invalid");
    expect(await verifyUserCredentials(t.db, { email, password })).toBeNull();
  });

  it("upgrades a hash made with weaker parameters on the next sign-in", async () => {
    const user = await signUp("old-hash@example.com", "legacy password");
    const { scryptSync } = await import("node:crypto");
    const salt = Buffer.from("0123456789abcdef");
    const weak = `scrypt$1024$8$1$${salt.toString("base64url")}$${scryptSync("legacy password", salt, 32, { N: 1024, r: 8, p: 1 }).toString("base64url")}`;
    await t.db.execute(sql`UPDATE users SET password_hash = ${weak} WHERE id = ${user.id}`);
    expect(await verifyUserCredentials(t.db, { email: "old-hash@example.com", password: "legacy password" })).not.toBeNull();
    const { rows } = await t.db.execute<{ password_hash: string }>(sql`SELECT password_hash FROM users WHERE id = ${user.id}`);
    expect(rows[0]?.password_hash).toMatch(/^scrypt\$32768\$/);
  });
});

describe("account tokens", () => {
  it("are listed, counted and revoked only for their owner", async () => {
    const a = await signUp("owner-a@example.com");
    const b = await signUp("owner-b@example.com");
    const tokenA = await createApiToken(t.db, { userId: a.id, name: "A's app", scopes: ["catalog:read"] });
    const tokenB = await createApiToken(t.db, { userId: b.id, name: "B's app", scopes: ["catalog:read"] });
    await issueStorefrontToken(t.db, a.id);

    // The storefront session token is A's too, but it is never listed: it is not a partner token.
    expect((await listApiTokens(t.db, a.id)).map((r) => r.name)).toEqual(["A's app"]);
    expect(await countActiveApiTokens(t.db, a.id)).toBe(1);

    // A cannot revoke B's token, by id or by prefix; B's token keeps working.
    expect(await revokeApiToken(t.db, tokenB.id, a.id)).toBe(0);
    expect(await revokeApiToken(t.db, tokenB.prefix, a.id)).toBe(0);
    expect((await authenticateToken(t.db, tokenB.token)).ok).toBe(true);

    expect(await revokeApiToken(t.db, tokenA.id, a.id)).toBe(1);
    expect(await authenticateToken(t.db, tokenA.token)).toEqual({ ok: false, reason: "revoked" });
    expect(await countActiveApiTokens(t.db, a.id)).toBe(0);
    expect((await listApiTokens(t.db, a.id))[0]?.revokedAt).toBeInstanceOf(Date);
  });

  it("count expired tokens as no longer active", async () => {
    const user = await signUp("expiry@example.com");
    await createApiToken(t.db, { userId: user.id, name: "old", scopes: ["catalog:read"], expiresAt: new Date(Date.now() - 1000) });
    await createApiToken(t.db, { userId: user.id, name: "live", scopes: ["catalog:read"], expiresAt: new Date(Date.now() + 60_000) });
    expect(await countActiveApiTokens(t.db, user.id)).toBe(1);
  });
});

describe("listUserIntents", () => {
  const gift = () =>
    giftVerifyRequestSchema.parse({
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: "g@example.com",
      fee: "excluded",
    });
  const gear = () =>
    gearIntentRequestSchema.parse({ account: "76561198000000001", platform: "730", item: "ak47-redline", email: "g@example.com" });

  it("returns the user's intents from API and storefront tokens, not other users', with titles, amounts and callbacks", async () => {
    const me = await signUp("intents-me@example.com");
    const other = await signUp("intents-other@example.com");
    const apiToken = await authToken(
      (await createApiToken(t.db, { userId: me.id, name: "partner site", scopes: ["gifts:verify", "gear:create"] })).token,
    );
    const storeToken = await authToken((await issueStorefrontToken(t.db, me.id)).token);
    const otherToken = await authToken((await createApiToken(t.db, { userId: other.id, name: "theirs", scopes: ["gifts:verify"] })).token);

    const giftIntent = await verifyGift(t.db, apiToken, gift(), ORIGIN);
    const gearIntent = await reserveGear(t.db, storeToken, gear(), ORIGIN);
    await verifyGift(t.db, otherToken, gift(), ORIGIN);

    await t.db.execute(
      sql`UPDATE intents SET attribution = '{"utm_source":"vk","utm_medium":"cpc"}', callback_url = 'https://partner.example/cb' WHERE id = ${giftIntent.intentId}`,
    );
    await t.db.execute(sql`UPDATE intents SET status = 'paid' WHERE id = ${giftIntent.intentId}`);
    const { rows } = await t.db.execute<{ id: string }>(sql`
      INSERT INTO webhook_deliveries (intent_id, user_id, event_type, url, body, status, attempt_count)
      VALUES (${giftIntent.intentId}, ${me.id}, 'intent.paid', 'https://partner.example/cb', '{}', 'pending', 2) RETURNING id`);
    const deliveryId = rows[0]!.id;
    await t.db.execute(sql`
      INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error) VALUES
        (${deliveryId}, 1, now() - interval '5 minutes', 30, NULL, 'connection refused'),
        (${deliveryId}, 2, now(), 12, 503, NULL)`);

    const page = await listUserIntents(t.db, me.id);
    expect(page.nextBefore).toBeNull();
    expect(page.intents.map((i) => i.id)).toEqual([gearIntent.intentId, giftIntent.intentId]);

    const [gearRow, giftRow] = page.intents;
    expect(gearRow).toMatchObject({
      kind: "gear",
      status: "requires_payment",
      appId: 730,
      gameTitle: "Counter-Strike 2",
      tokenPurpose: "storefront",
      paymentAmount: gearIntent.paymentAmount,
      callbacks: [],
      attribution: null,
    });
    expect(gearRow?.itemTitle).toBeTruthy();
    expect(giftRow).toMatchObject({
      kind: "gift",
      status: "paid",
      appId: 620,
      gameTitle: "Portal 2",
      tokenName: "partner site",
      tokenPurpose: "api",
      attribution: { utm_source: "vk", utm_medium: "cpc" },
      callbackUrl: "https://partner.example/cb",
      paymentAmount: giftIntent.paymentAmount,
    });
    expect(giftRow?.paidAt).toBeInstanceOf(Date);
    expect(giftRow?.intentAmount).toBe(giftRow!.paymentAmount - giftRow!.feeAmount + giftRow!.discountAmount);
    expect(giftRow?.callbacks).toEqual([
      expect.objectContaining({
        id: deliveryId,
        eventType: "intent.paid",
        status: "pending",
        attemptCount: 2,
        lastResponseStatus: 503,
        lastError: null,
      }),
    ]);

    expect((await listUserIntents(t.db, other.id)).intents).toHaveLength(1);
  });

  it("pages from newest to oldest with `before`", async () => {
    const user = await signUp("pages@example.com");
    const token = await authToken((await createApiToken(t.db, { userId: user.id, name: "pager", scopes: ["gifts:verify"] })).token);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await verifyGift(t.db, token, gift(), ORIGIN)).intentId);
    const newestFirst = [...made].reverse();

    const first = await listUserIntents(t.db, user.id, { limit: 2 });
    expect(first.intents.map((i) => i.id)).toEqual(newestFirst.slice(0, 2));
    const second = await listUserIntents(t.db, user.id, { limit: 2, before: first.nextBefore });
    expect(second.intents.map((i) => i.id)).toEqual(newestFirst.slice(2, 4));
    const third = await listUserIntents(t.db, user.id, { limit: 2, before: second.nextBefore });
    expect(third.intents.map((i) => i.id)).toEqual(newestFirst.slice(4));
    expect(third.nextBefore).toBeNull();
    // A cursor that is not an id of this user's is harmless: it is the first page.
    expect((await listUserIntents(t.db, user.id, { limit: 2, before: "not-a-uuid" })).intents.map((i) => i.id)).toEqual(
      newestFirst.slice(0, 2),
    );
  });
});
