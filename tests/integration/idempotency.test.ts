import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { asAnswered, refusal } from "@/tests/support/refusal";
import type { Transaction } from "@/lib/db/client";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import {
  canonicalJson,
  purgeExpiredIdempotencyKeys,
  readIdempotencyKey,
  withIdempotency,
  type IdempotentRequest,
} from "@/lib/api/idempotency";
import { reserveGear } from "@/lib/services/gear";
import { createApiToken, ownershipOf, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerAccount } from "@/tests/support/partners";

const ROUTE = "POST /api/v1/gear";
let t: TestDatabase;
let owner: AuthToken;
let other: AuthToken;

async function tokenFor(email: string): Promise<AuthToken> {
  // Partners: the races here hold more than a shopper may (lib/services/holds.ts).
  const userId = await partnerAccount(t.db, email);
  const created = await createApiToken(t.db, { userId, name: email, scopes: ["gear:create"] });
  return { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
}

beforeAll(async () => {
  t = await createTestDatabase();
  owner = await tokenFor("idem-owner@example.com");
  other = await tokenFor("idem-other@example.com");
  await t.db.execute(sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'idem', 'Idem', 10000, 1000)`);
});

afterAll(() => t?.close());

const body = (email = "g@example.com") => ({ account: "76561198000000001", platform: "730", item: "idem", email });

/** What the gear route does, with the key's transaction as its database. */
function createGear(who: AuthToken, raw: Record<string, unknown>, key: string, route = ROUTE): Promise<Response> {
  const request: IdempotentRequest = { ...ownershipOf(who), key, route, body: raw };
  return withIdempotency(t.db, request, async (tx: Transaction) =>
    Response.json(await reserveGear(tx, who, gearIntentRequestSchema.parse(raw), "https://store.test"), { status: 201 }),
  );
}

async function settled(response: Response) {
  return { status: response.status, replayed: response.headers.get("idempotent-replayed"), body: await response.json() };
}

const intentsFor = (email: string) =>
  t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM intents WHERE email = ${email}`).then((r) => r.rows[0]!.n);

const keyRow = (who: AuthToken, key: string) =>
  t.db
    .execute<{ request_route: string; response_status: number; intent_id: string | null }>(
      sql`SELECT request_route, response_status, intent_id FROM idempotency_keys WHERE user_id = ${who.userId} AND key = ${key}`,
    )
    .then((r) => r.rows[0]);

describe("Idempotency-Key", () => {
  it("replays the first response to the same key and body, creating nothing more", async () => {
    const first = await settled(await createGear(owner, body("replay@example.com"), "key-replay"));
    expect(first).toMatchObject({ status: 201, replayed: null, body: { code: 201, verified: true } });
    // The same body with its fields in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body("replay@example.com")).reverse());
    const again = await settled(await createGear(owner, reordered, "key-replay"));
    expect(again).toEqual({ status: 201, replayed: "true", body: first.body });
    expect(await intentsFor("replay@example.com")).toBe(1);
    expect(await keyRow(owner, "key-replay")).toEqual({ request_route: ROUTE, response_status: 201, intent_id: first.body.intentId });
  });

  it("is 409 with another body or on another endpoint, and creates nothing", async () => {
    await createGear(owner, body("conflict@example.com"), "key-conflict");
    await expect(refusal(createGear(owner, body("conflict-2@example.com"), "key-conflict"))).resolves.toMatchObject({
      status: 409,
      message: 'Idempotency-Key "key-conflict" was already used with a different request body; use a new key for a new request',
    });
    await expect(
      refusal(createGear(owner, body("conflict@example.com"), "key-conflict", "POST /api/v1/gifts/verify")),
    ).resolves.toMatchObject({
      status: 409,
      message: 'Idempotency-Key "key-conflict" was already used for POST /api/v1/gear; use a new key for a new request',
    });
    expect(await intentsFor("conflict@example.com")).toBe(1);
    expect(await intentsFor("conflict-2@example.com")).toBe(0);
  });

  it("belongs to the token's owner: another owner's same key is another request", async () => {
    const mine = await settled(await createGear(owner, body("owners@example.com"), "shared-key"));
    const theirs = await settled(await createGear(other, body("owners@example.com"), "shared-key"));
    expect(theirs).toMatchObject({ status: 201, replayed: null });
    expect(theirs.body.intentId).not.toBe(mine.body.intentId);
  });

  it("creates one intent when 20 requests with one key arrive at once", async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => createGear(owner, body("race@example.com"), "key-race").then(settled)),
    );
    expect(await intentsFor("race@example.com")).toBe(1);
    expect(new Set(responses.map((r) => r.body.intentId)).size).toBe(1);
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(responses.filter((r) => r.replayed === "true")).toHaveLength(19);
  });

  it("lets the first of two racing bodies win: its twins replay, the other body is 409", async () => {
    const raw = (email: string) => createGear(owner, body(email), "key-two-bodies").then(settled, (err: DomainError) => err);
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => raw(i % 2 ? "odd@example.com" : "even@example.com")));
    const created = results.filter((r) => !(r instanceof DomainError));
    const refused = results.filter((r) => r instanceof DomainError);
    expect(created).toHaveLength(8);
    expect(refused).toHaveLength(8);
    expect((await intentsFor("odd@example.com")) + (await intentsFor("even@example.com"))).toBe(1);
    for (const err of refused) expect(asAnswered(err)).toMatchObject({ status: 409, reason: "idempotency_key_reused" });
  });

  it("stores nothing for a failed request, so a retry with the same key runs again", async () => {
    await t.db.execute(
      sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'idem-none', 'None', 10000, 0)`,
    );
    const raw = { ...body("retry@example.com"), item: "idem-none" };
    const outOfStock = createGear(owner, raw, "key-retry");
    await expect(refusal(outOfStock)).resolves.toMatchObject({ status: 409, message: "item idem-none is out of stock" });
    expect(await keyRow(owner, "key-retry")).toBeUndefined();
    await t.db.execute(sql`UPDATE gear_items SET stock = 1 WHERE item = 'idem-none'`);
    const retried = await settled(await createGear(owner, raw, "key-retry"));
    expect(retried).toMatchObject({ status: 201, replayed: null });
  });

  it("stores nothing for a non-2xx response either, and rolls back what the handler wrote", async () => {
    const request = { ...ownershipOf(owner), key: "key-non-2xx", route: ROUTE, body: {} };
    const res = await withIdempotency(t.db, request, async (tx) => {
      await reserveGear(tx, owner, gearIntentRequestSchema.parse(body("non2xx@example.com")), "https://store.test");
      return Response.json({ code: 422, message: "no" }, { status: 422 });
    });
    expect(res.status).toBe(422);
    expect(await keyRow(owner, "key-non-2xx")).toBeUndefined();
    expect(await intentsFor("non2xx@example.com")).toBe(0);
  });

  it("expires after 24 hours: then the key is new again", async () => {
    const first = await settled(await createGear(owner, body("old@example.com"), "key-old"));
    const ttl = await t.db.execute<{ hours: number }>(
      sql`SELECT extract(epoch FROM expires_at - created_at)::int / 3600 AS hours FROM idempotency_keys WHERE key = 'key-old'`,
    );
    expect(ttl.rows[0]!.hours).toBe(24);
    await t.db.execute(sql`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'key-old'`);
    const later = await settled(await createGear(owner, body("new@example.com"), "key-old"));
    expect(later).toMatchObject({ status: 201, replayed: null });
    expect(later.body.intentId).not.toBe(first.body.intentId);
    expect(await keyRow(owner, "key-old")).toMatchObject({ intent_id: later.body.intentId });
  });

  it("purges only expired keys", async () => {
    await createGear(owner, body("purge-a@example.com"), "key-purge-a");
    await createGear(owner, body("purge-b@example.com"), "key-purge-b");
    await t.db.execute(sql`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'key-purge-a'`);
    expect(await purgeExpiredIdempotencyKeys(t.db)).toBe(1);
    expect(await keyRow(owner, "key-purge-a")).toBeUndefined();
    expect(await keyRow(owner, "key-purge-b")).toBeDefined();
  });
});

describe("readIdempotencyKey", () => {
  const read = (value?: string) =>
    readIdempotencyKey(new Request("http://x/", { headers: value === undefined ? {} : { "Idempotency-Key": value } }));
  const refusalOf = (call: () => unknown) => {
    try {
      call();
    } catch (err) {
      if (err instanceof DomainError) return asAnswered(err);
      throw err;
    }
    throw new Error("no refusal");
  };
  const message = "Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID is a good choice)";

  it.each([
    ["a UUID", "3f1e7c52-8f1a-4c43-9d2b-0b6f2f3c4a10"],
    ["255 characters", "k".repeat(255)],
    ["spaces and punctuation inside", "order 42/attempt#1"],
  ])("accepts %s", (_, key) => expect(read(key)).toBe(key));

  it("is null when the header is absent", () => expect(read()).toBeNull());

  it.each([
    ["an empty value", ""],
    ["256 characters", "k".repeat(256)],
    ["non-ASCII (as a server reads UTF-8 bytes: one character per byte)", "caf\u00c3\u00a9"],
    ["a control character", "a\x7fb"],
  ])("refuses %s with 400", (_, key) => {
    expect(refusalOf(() => read(key))).toMatchObject({ status: 400, reason: "invalid_idempotency_key", param: "Idempotency-Key", message });
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });
});
