import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { createAccountApiToken } from "@/lib/services/account";
import { CLI_ACTOR } from "@/lib/services/audit";
import { makePartner } from "@/lib/services/partners";
import { authenticateToken, createApiToken, ensureUser, hashToken, listApiTokens, revokeApiToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;
let userId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  userId = await ensureUser(t.db, "Tokens@Example.com");
});

afterAll(() => t?.close());

const later = (ms: number) => new Date(Date.now() + ms);

describe("API tokens", () => {
  it("are stored only as a hash and shown once", async () => {
    const created = await createApiToken(t.db, { userId, name: "shown once", scopes: ["catalog:read"] });
    expect(created.token).toMatch(/^gk_live_[A-Za-z0-9]{43}$/);
    const { rows } = await t.db.execute<{ token_hash: string; prefix: string }>(
      sql`SELECT token_hash, prefix FROM api_tokens WHERE id = ${created.id}`,
    );
    expect(rows[0]).toEqual({ token_hash: hashToken(created.token), prefix: created.token.slice(0, 12) });
    const listed = await listApiTokens(t.db, userId);
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it("match users by e-mail case-insensitively", async () => {
    expect(await ensureUser(t.db, "tokens@example.COM")).toBe(userId);
  });

  it("authenticate with their scopes and record the last use", async () => {
    const created = await createApiToken(t.db, { userId, name: "use", scopes: ["gifts:verify", "gear:create"] });
    const result = await authenticateToken(t.db, created.token);
    expect(result).toEqual({
      ok: true,
      token: { id: created.id, userId, name: "use", scopes: ["gifts:verify", "gear:create"], purpose: "api", guest: false },
    });
    await expect.poll(async () => (await listApiTokens(t.db, userId)).find((r) => r.id === created.id)?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("expire, even while a lookup is cached", async () => {
    const created = await createApiToken(t.db, { userId, name: "expiring", scopes: ["catalog:read"], expiresAt: later(60_000) });
    expect((await authenticateToken(t.db, created.token)).ok).toBe(true);
    expect(await authenticateToken(t.db, created.token, later(61_000))).toEqual({ ok: false, reason: "expired" });
  });

  it("stop working at once when revoked by this process", async () => {
    const created = await createApiToken(t.db, { userId, name: "revoked here", scopes: ["catalog:read"] });
    expect((await authenticateToken(t.db, created.token)).ok).toBe(true);
    expect(await revokeApiToken(t.db, created.prefix)).toBe(1);
    expect(await authenticateToken(t.db, created.token)).toEqual({ ok: false, reason: "revoked" });
    expect(await revokeApiToken(t.db, created.id)).toBe(0);
  });

  it("stop working within AUTH_CACHE_TTL_MS when revoked elsewhere", async () => {
    const created = await createApiToken(t.db, { userId, name: "revoked elsewhere", scopes: ["catalog:read"] });
    expect((await authenticateToken(t.db, created.token)).ok).toBe(true);
    // Another instance or the CLI revokes it: this process's cache does not hear of it.
    await t.db.execute(sql`UPDATE api_tokens SET revoked_at = now() WHERE id = ${created.id}`);
    const after = later(env.AUTH_CACHE_TTL_MS + 1);
    expect(await authenticateToken(t.db, created.token, after)).toEqual({ ok: false, reason: "revoked" });
  });

  it("reject unknown and malformed tokens", async () => {
    expect(await authenticateToken(t.db, `gk_live_${"x".repeat(43)}`)).toEqual({ ok: false, reason: "unknown" });
    expect(await authenticateToken(t.db, "gk_live_short")).toEqual({ ok: false, reason: "malformed" });
    expect(await authenticateToken(t.db, "")).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuse an ambiguous prefix rather than revoke the wrong token", async () => {
    const a = await createApiToken(t.db, { userId, name: "a", scopes: ["catalog:read"] });
    await t.db.execute(sql`UPDATE api_tokens SET prefix = 'gk_live_SAME' WHERE id = ${a.id}`);
    const b = await createApiToken(t.db, { userId, name: "b", scopes: ["catalog:read"] });
    await t.db.execute(sql`UPDATE api_tokens SET prefix = 'gk_live_SAME' WHERE id = ${b.id}`);
    await expect(revokeApiToken(t.db, "gk_live_SAME")).rejects.toThrow(/matches 2 tokens; revoke by id/);
  });
});

describe("the refund scope", () => {
  it("is refused to a shopper's self-service token, whatever makes it, and writes nothing", async () => {
    const shopper = await ensureUser(t.db, "self-service@example.com");
    const ask = { userId: shopper, name: "my shop", scopes: ["intents:read", "intents:refund"] as const };
    await expect(createAccountApiToken(t.db, { ...ask, scopes: [...ask.scopes], expiresAt: null })).rejects.toMatchObject({
      reason: "partner_required",
      details: { what: "intents:refund" },
    });
    await expect(createApiToken(t.db, { ...ask, scopes: [...ask.scopes] })).rejects.toMatchObject({ reason: "partner_required" });
    expect(await listApiTokens(t.db, shopper)).toEqual([]);
    // Without the scope the same account's token is made as before.
    await expect(createAccountApiToken(t.db, { ...ask, scopes: ["intents:read"], expiresAt: null })).resolves.toMatchObject({
      scopes: ["intents:read"],
    });
  });

  it("is given to a partner's token", async () => {
    await ensureUser(t.db, "scoped-partner@example.com");
    const { userId } = await makePartner(t.db, CLI_ACTOR, "scoped-partner@example.com");
    const created = await createAccountApiToken(t.db, { userId, name: "refunds", scopes: ["intents:refund"], expiresAt: null });
    expect(created.scopes).toEqual(["intents:refund"]);
  });
});
