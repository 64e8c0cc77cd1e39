import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "@/tests/support/refusal";
import { createDb, createPool, type Transaction } from "@/lib/db/client";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { reserveGear } from "@/lib/services/gear";
import { withIdempotency } from "@/lib/api/idempotency";
import { getIntentForOwner } from "@/lib/services/intent-lifecycle";
import {
  STOREFRONT_GUEST_EMAIL,
  authenticateToken,
  createApiToken,
  ensureUser,
  issueStorefrontToken,
  ownershipOf,
  type AuthToken,
} from "@/lib/services/tokens";
import { registerUser } from "@/lib/services/users";
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from "@/tests/support/db";

// Every guest's storefront token has one owner, so what a guest makes must be its token's alone;
// a real owner's tokens keep sharing theirs.
const ORIGIN = "https://store.test";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.execute(
    sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'guest-crate', 'Guest Crate', 10000, 1000)`,
  );
});

afterAll(() => t?.close());

async function authenticated(token: string): Promise<AuthToken> {
  const result = await authenticateToken(t.db, token);
  if (!result.ok) throw new Error(`token refused: ${result.reason}`);
  return result.token;
}

const guestToken = async () => authenticated((await issueStorefrontToken(t.db, null)).token);
const ownerToken = async (email: string) =>
  authenticated(
    (await createApiToken(t.db, { userId: await ensureUser(t.db, email), name: email, scopes: ["gear:create", "intents:read"] })).token,
  );

const gearBody = (email: string) => ({ account: "76561198000000001", platform: "730", item: "guest-crate", email });

/** What POST /api/v1/gear does with an Idempotency-Key, as lib/api/handler.ts calls it. */
async function createGear(who: AuthToken, email: string, key: string) {
  const raw = gearBody(email);
  const response = await withIdempotency(
    t.db,
    { ...ownershipOf(who), key, route: "POST /api/v1/gear", body: raw },
    async (tx: Transaction) => Response.json(await reserveGear(tx, who, gearIntentRequestSchema.parse(raw), ORIGIN), { status: 201 }),
  );
  const body = (await response.json()) as { intentId: string };
  return { status: response.status, replayed: response.headers.get("idempotent-replayed") === "true", intentId: body.intentId };
}

const read = (who: AuthToken, intentId: string) => getIntentForOwner(t.db, who, intentId, ORIGIN);
const intentsFor = async (email: string) =>
  (await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM intents WHERE email = ${email}`)).rows[0]!.n;

describe("guests' storefront tokens", () => {
  it("all belong to the one guest owner, and are marked as guests' when they authenticate", async () => {
    const [a, b] = [await guestToken(), await guestToken()];
    expect(a.userId).toBe(b.userId);
    expect([a.guest, b.guest]).toEqual([true, true]);
    expect(ownershipOf(a)).toEqual({ userId: a.userId, tokenId: a.id });
    const signedIn = await authenticated((await issueStorefrontToken(t.db, await ensureUser(t.db, "shopper@example.com"))).token);
    expect(signedIn.guest).toBe(false);
    expect(ownershipOf(signedIn)).toEqual({ userId: signedIn.userId, tokenId: null });
  });

  it("cannot read another guest's intent: 404 exactly as for an unknown id", async () => {
    const [a, b] = [await guestToken(), await guestToken()];
    const { intentId } = await createGear(a, "guest-a@example.com", "guest-read");
    expect((await read(a, intentId)).id).toBe(intentId);
    await expect(refusal(read(b, intentId))).resolves.toMatchObject({ status: 404, message: `intent ${intentId} not found` });
    await expect(refusal(read(b, UNKNOWN))).resolves.toMatchObject({ status: 404, message: `intent ${UNKNOWN} not found` });
  });

  it("have Idempotency-Keys of their own: one key from two guests makes two intents, and replays to each its own", async () => {
    const [a, b] = [await guestToken(), await guestToken()];
    const first = await createGear(a, "guest-key@example.com", "shared-guest-key");
    const second = await createGear(b, "guest-key@example.com", "shared-guest-key");
    expect(first).toMatchObject({ status: 201, replayed: false });
    expect(second).toMatchObject({ status: 201, replayed: false });
    expect(second.intentId).not.toBe(first.intentId);
    expect(await intentsFor("guest-key@example.com")).toBe(2);
    expect(await createGear(a, "guest-key@example.com", "shared-guest-key")).toEqual({ ...first, replayed: true });
    expect(await createGear(b, "guest-key@example.com", "shared-guest-key")).toEqual({ ...second, replayed: true });
    expect(await intentsFor("guest-key@example.com")).toBe(2);
  });
});

describe("a real owner's tokens", () => {
  it("still read each other's intents and share Idempotency-Keys", async () => {
    const [one, two] = [await ownerToken("partner@example.com"), await ownerToken("partner@example.com")];
    const stranger = await ownerToken("stranger@example.com");
    expect([one.guest, two.guest]).toEqual([false, false]);
    const first = await createGear(one, "owner-key@example.com", "owner-key");
    expect((await read(two, first.intentId)).id).toBe(first.intentId);
    await expect(refusal(read(stranger, first.intentId))).resolves.toMatchObject({ status: 404 });
    expect(await createGear(two, "owner-key@example.com", "owner-key")).toEqual({ ...first, replayed: true });
    expect(await intentsFor("owner-key@example.com")).toBe(1);
  });
});

describe("the guest owner", () => {
  it("is looked up once per process: later issuances reuse the id without asking the database", async () => {
    const owner = (await guestToken()).userId;
    // Renamed behind the cache's back: a fresh lookup would now create a second guest owner.
    await t.db.execute(sql`UPDATE users SET email = 'renamed-guests@example.com' WHERE id = ${owner}`);
    try {
      expect((await guestToken()).userId).toBe(owner);
      const { rows } = await t.db.execute(sql`SELECT 1 FROM users WHERE lower(email) = ${STOREFRONT_GUEST_EMAIL}`);
      expect(rows).toHaveLength(0);
    } finally {
      await t.db.execute(sql`UPDATE users SET email = ${STOREFRONT_GUEST_EMAIL} WHERE id = ${owner}`);
    }
  });

  it("is created once when the first issuances on a new database race", async () => {
    const fresh = await createTestDatabase();
    try {
      const issued = await Promise.all(Array.from({ length: 8 }, () => issueStorefrontToken(fresh.db, null)));
      const { rows } = await fresh.db.execute<{ user_id: string }>(sql`
        SELECT DISTINCT t.user_id FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.purpose = 'storefront' AND lower(u.email) = ${STOREFRONT_GUEST_EMAIL}`);
      expect(issued).toHaveLength(8);
      expect(rows).toHaveLength(1);
      const { rows: owners } = await fresh.db.execute(sql`SELECT 1 FROM users WHERE lower(email) = ${STOREFRONT_GUEST_EMAIL}`);
      expect(owners).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it("is found afresh when the cached one was deleted", async () => {
    const fresh = await createTestDatabase();
    const ownerOf = async (token: string) =>
      (
        await fresh.db.execute<{ user_id: string }>(
          sql`SELECT user_id FROM api_tokens WHERE token_hash = encode(sha256(${token}::bytea), 'hex')`,
        )
      ).rows[0]?.user_id;
    try {
      const before = await ownerOf((await issueStorefrontToken(fresh.db, null)).token);
      await fresh.db.execute(sql`DELETE FROM users WHERE id = ${before!}`);
      const after = await ownerOf((await issueStorefrontToken(fresh.db, null)).token);
      expect(before).toBeTruthy();
      expect(after).toBeTruthy();
      expect(after).not.toBe(before);
    } finally {
      await fresh.close();
    }
  });

  it("cannot be signed up as an account, and one that was is never handed guests' tokens", async () => {
    expect(await registerUser(t.db, { email: "Guests@Storefront.GiftKey.invalid", password: "guests' intents please" })).toEqual({
      ok: false,
      reason: "email_taken",
    });
    const fresh = await createTestDatabase();
    try {
      // As if signed up before the address was reserved.
      await fresh.db.execute(sql`INSERT INTO users (email, password_hash) VALUES (${STOREFRONT_GUEST_EMAIL}, 'scrypt$x')`);
      await expect(issueStorefrontToken(fresh.db, null)).rejects.toThrow(/has a password/);
      const { rows } = await fresh.db.execute(sql`SELECT 1 FROM api_tokens WHERE purpose = 'storefront'`);
      expect(rows).toHaveLength(0);
    } finally {
      await fresh.close();
    }
  });
});

describe("migration 0006", () => {
  it("moves the keys guests stored before it to their own tokens and leaves real owners' keys shared", async () => {
    const empty = await createEmptyDatabase();
    const pool = createPool(empty.url, 2);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-migrations-"));
    try {
      // The migrations up to 0005 only: the database as it was before guests' keys had tokens.
      const source = path.resolve(import.meta.dirname, "../../drizzle");
      fs.cpSync(source, dir, { recursive: true });
      const journal = JSON.parse(fs.readFileSync(path.join(dir, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
      const upTo = journal.entries.findIndex((e) => e.tag.startsWith("0006_"));
      fs.writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
      const db = createDb(pool);
      await migrate(db, { migrationsFolder: dir });

      const { rows } = await db.execute<{ guest_token: string; owner_token: string }>(sql`
        WITH g AS (INSERT INTO users (email) VALUES (${STOREFRONT_GUEST_EMAIL}), ('partner@example.com') RETURNING id, email),
        tk AS (INSERT INTO api_tokens (user_id, name, prefix, token_hash, scopes)
               SELECT id, email, 'gk_live_xxxx', md5(email), ARRAY['gear:create'] FROM g RETURNING id, user_id),
        game AS (INSERT INTO games (app_id, title, short_description, sort_rank) VALUES (730, 'CS2', 'x', 1) RETURNING app_id),
        item AS (INSERT INTO gear_items (platform_app_id, item, title, price, stock) SELECT app_id, 'crate', 'Crate', 5000, 10 FROM game RETURNING id)
        SELECT (SELECT tk.id FROM tk JOIN g ON g.id = tk.user_id WHERE g.email = ${STOREFRONT_GUEST_EMAIL}) AS guest_token,
               (SELECT tk.id FROM tk JOIN g ON g.id = tk.user_id WHERE g.email <> ${STOREFRONT_GUEST_EMAIL}) AS owner_token`);
      const { guest_token: guestTokenId, owner_token: ownerTokenId } = rows[0]!;
      for (const [tokenId, key] of [
        [guestTokenId, "guest-key"],
        [ownerTokenId, "owner-key"],
      ] as const) {
        await db.execute(sql`
          WITH i AS (
            INSERT INTO intents (kind, token_id, app_id, gear_item_id, account, email, fee_mode, intent_amount, discount_amount, fee_amount, payment_amount, expires_at)
            SELECT 'gear', ${tokenId}, 730, id, '76561198000000001', 'x@example.com', 'excluded', 5000, 0, 250, 5250, now() + interval '15 minutes' FROM gear_items
            RETURNING id, token_id)
          INSERT INTO idempotency_keys (user_id, key, request_route, request_hash, response_status, response_body, intent_id, expires_at)
          SELECT t.user_id, ${key}, 'POST /api/v1/gear', 'h', 201, '{}', i.id, now() + interval '1 day' FROM i JOIN api_tokens t ON t.id = i.token_id`);
      }

      await migrate(db, { migrationsFolder: source });
      const { rows: keys } = await db.execute<{ key: string; token_id: string | null }>(
        sql`SELECT key, token_id FROM idempotency_keys ORDER BY key`,
      );
      expect(keys).toEqual([
        { key: "guest-key", token_id: guestTokenId },
        { key: "owner-key", token_id: null },
      ]);
    } finally {
      await pool.end();
      await empty.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
