import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMailPage } from "@/lib/mail/kept";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import type { Actor } from "@/lib/services/audit";
import { verifyGift } from "@/lib/services/gifts";
import { payIntent } from "@/lib/services/intent-lifecycle";
import { isPartner, listPartners, makePartner, removePartner, revokePartnerToken, setPartnerHoldCap } from "@/lib/services/partners";
import { authenticateToken, createApiToken, ensureUser, type AuthToken } from "@/lib/services/tokens";
import { createWebhookEndpoint } from "@/lib/services/webhook-endpoints";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

// The back office's partners page (/admin/partners) and outgoing mail (/admin/mail): what they
// read, paged in the database; revoking a token, audited in its transaction.

const ORIGIN = "https://store.example.com";
let t: TestDatabase;
let ownerId: string;
let auth: AuthToken;
let secretToken: string;
let tokenId: string;
let endpointId: string;
const admin: Actor = { userId: null, label: "partners-admin@example.com" };

beforeAll(async () => {
  t = await createTestDatabase();
  admin.userId = await ensureUser(t.db, admin.label);
  ownerId = await ensureUser(t.db, "acme-partner@example.com", "Acme");
  const created = await createApiToken(t.db, { userId: ownerId, name: "acme prod", scopes: ["gifts:verify", "intents:read"] });
  secretToken = created.token;
  tokenId = created.id;
  auth = { id: created.id, userId: ownerId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  await createApiToken(t.db, { userId: ownerId, name: "acme old", scopes: ["catalog:read"], expiresAt: new Date(Date.now() - 60_000) });
  endpointId = (await createWebhookEndpoint(t.db, { userId: ownerId, url: "https://hooks.acme.example/gk", eventTypes: ["intent.paid"] }))
    .id;

  // A delivered, a still-retrying and a dead delivery to the endpoint; a dead one to an order's callbackUrl.
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
    email: "acme-buyer@example.com",
    fee: "excluded",
  });
  const { intentId } = await verifyGift(t.db, auth, body, ORIGIN);
  await payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: "sbx_acme", origin: ORIGIN });
  // A test event goes to an endpoint without an intent; a callback belongs to an intent.
  const insert = async (endpoint: string | null, status: string, attempts: number, error: string | null, code: number | null) => {
    const { rows } = await t.db.execute<{ id: string }>(sql`
      INSERT INTO webhook_deliveries (intent_id, user_id, endpoint_id, event_type, url, body, status, attempt_count)
      VALUES (${endpoint ? null : intentId}, ${ownerId}, ${endpoint}, ${endpoint ? "webhook.test" : "intent.paid"},
        ${endpoint ? "https://hooks.acme.example/gk" : "https://acme.example/cb"}, '{}', ${status}, ${attempts})
      RETURNING id`);
    const id = rows[0]!.id;
    for (let a = 1; a <= attempts; a++)
      await t.db.execute(sql`
        INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error)
        VALUES (${id}, ${a}, now(), 10, ${a === attempts ? code : 500}, ${a === attempts ? error : null})`);
  };
  await insert(endpointId, "delivered", 1, null, 200);
  await insert(endpointId, "pending", 2, null, 503);
  await insert(endpointId, "failed", 3, "connect ECONNREFUSED", null);
  await insert(null, "failed", 2, "timeout after 5000 ms", null);
  // An owner of storefront tokens only (a shopper's session) is no partner.
  const shopper = await ensureUser(t.db, "shopper-only@example.com");
  await createApiToken(t.db, { userId: shopper, name: "storefront", scopes: ["catalog:read"], purpose: "storefront" });
});
afterAll(() => t?.close());

describe("the partners page's listing", () => {
  it("lists each owner with tokens (no hash), endpoints (no secret) and what fails", async () => {
    const { partners, total } = await listPartners(t.db, { email: "acme-partner" });
    expect(total).toBe(1);
    const acme = partners[0]!;
    expect(acme).toMatchObject({ userId: ownerId, email: "acme-partner@example.com", name: "Acme" });
    expect(acme.tokens.map((tk) => [tk.name, tk.expired, tk.revokedAt])).toEqual([
      ["acme old", true, null],
      ["acme prod", false, null],
    ]);
    for (const tk of acme.tokens)
      expect(Object.keys(tk).sort()).toEqual([
        "createdAt",
        "expired",
        "expiresAt",
        "id",
        "lastUsedAt",
        "name",
        "prefix",
        "revokedAt",
        "scopes",
      ]);
    const text = JSON.stringify(partners);
    expect(text).not.toMatch(/whsec_|token_hash|tokenHash|secret/);
    expect(text).not.toContain(secretToken);

    expect(acme.endpoints).toHaveLength(1);
    const endpoint = acme.endpoints[0]!;
    expect(endpoint).toMatchObject({ url: "https://hooks.acme.example/gk", enabled: true, eventTypes: ["intent.paid"], failingCount: 2 });
    expect(endpoint.lastDeliveryAt).toBeInstanceOf(Date);
    expect(endpoint.failing.map((f) => [f.status, f.attempts, f.lastStatus, f.lastError])).toEqual(
      expect.arrayContaining([
        ["pending", 2, 503, null],
        ["failed", 3, null, "connect ECONNREFUSED"],
      ]),
    );
    expect(acme.callbackFailingCount).toBe(1);
    expect(acme.callbackFailing[0]).toMatchObject({ status: "failed", url: "https://acme.example/cb", lastError: "timeout after 5000 ms" });
  });

  it("leaves out owners of storefront tokens alone, and pages by e-mail", async () => {
    const all = await listPartners(t.db, { pageSize: 100 });
    expect(all.partners.map((p) => p.email)).not.toContain("shopper-only@example.com");
    const emails = all.partners.map((p) => p.email.toLowerCase());
    expect(emails).toEqual([...emails].sort());
    const first = await listPartners(t.db, { pageSize: 1, page: 1 });
    expect(first.total).toBe(all.total);
    expect(first.partners).toHaveLength(1);
    const beyond = await listPartners(t.db, { pageSize: 1, page: all.total + 1 });
    expect(beyond).toEqual({ partners: [], total: all.total });
  });
});

describe("making an account a partner", () => {
  const auditOf = async (userId: string) =>
    (
      await t.db.execute<{ action: string; actor: string; before: unknown; after: unknown }>(
        sql`SELECT action, actor, before, after FROM audit_log WHERE target_type = 'user' AND target_id = ${userId} ORDER BY id`,
      )
    ).rows;

  it("shows token owners that are not partners beside the partners, so a shopper's tokens are seen", async () => {
    const acme = (await listPartners(t.db, { email: "acme-partner" })).partners[0]!;
    expect(acme).toMatchObject({ partner: null });
    const { partners } = await listPartners(t.db, { pageSize: 100, kind: "others" });
    expect(partners.map((p) => p.email)).toContain("acme-partner@example.com");
    expect((await listPartners(t.db, { pageSize: 100, kind: "partners" })).partners.map((p) => p.email)).not.toContain(
      "acme-partner@example.com",
    );
  });

  it("by e-mail, in any letter case, audited; once only; then listed with the default hold cap", async () => {
    expect(await makePartner(t.db, admin, "ACME-partner@example.com")).toEqual({ userId: ownerId, made: true });
    expect(await makePartner(t.db, admin, "acme-partner@example.com")).toEqual({ userId: ownerId, made: false });
    expect(await isPartner(t.db, ownerId)).toBe(true);
    const acme = (await listPartners(t.db, { email: "acme-partner", kind: "partners" })).partners[0]!;
    expect(acme.partner).toMatchObject({ holdCap: null, createdBy: admin.label, createdAt: expect.any(Date) });
    expect(await auditOf(ownerId)).toEqual([
      { action: "partner.add", actor: admin.label, before: { partner: false }, after: { partner: true, holdCap: null } },
    ]);
  });

  it("lists a partner with no token or endpoint yet", async () => {
    await ensureUser(t.db, "new-partner@example.com");
    const { userId } = await makePartner(t.db, admin, "new-partner@example.com");
    const found = (await listPartners(t.db, { email: "new-partner" })).partners;
    expect(found.map((p) => [p.userId, p.tokens.length, p.partner !== null])).toEqual([[userId, 0, true]]);
  });

  it("sets and clears a partner's own hold cap, audited with before and after", async () => {
    await setPartnerHoldCap(t.db, admin, ownerId, 2500);
    expect((await listPartners(t.db, { email: "acme-partner" })).partners[0]!.partner).toMatchObject({ holdCap: 2500 });
    await setPartnerHoldCap(t.db, admin, ownerId, null);
    expect((await auditOf(ownerId)).slice(-2)).toEqual([
      { action: "partner.hold_cap", actor: admin.label, before: { holdCap: null }, after: { holdCap: 2500 } },
      { action: "partner.hold_cap", actor: admin.label, before: { holdCap: 2500 }, after: { holdCap: null } },
    ]);
    await expect(setPartnerHoldCap(t.db, admin, await ensureUser(t.db, "not-a-partner@example.com"), 10)).rejects.toMatchObject({
      reason: "partner_not_found",
    });
  });

  it("refuses an e-mail no account has, and the storefront's guest owner", async () => {
    await expect(makePartner(t.db, admin, "nobody-here@example.com")).rejects.toMatchObject({
      reason: "account_not_found",
      param: "email",
    });
    await expect(makePartner(t.db, admin, "guests@storefront.giftkey.invalid")).rejects.toMatchObject({
      reason: "invalid_field",
      param: "email",
    });
  });

  it("stops an account being a partner, audited; its tokens then refund nothing", async () => {
    await ensureUser(t.db, "leaving-partner@example.com");
    const { userId } = await makePartner(t.db, admin, "leaving-partner@example.com");
    expect(await removePartner(t.db, admin, userId)).toEqual({ removed: true });
    expect(await removePartner(t.db, admin, userId)).toEqual({ removed: false });
    expect(await isPartner(t.db, userId)).toBe(false);
    expect((await auditOf(userId)).map((e) => e.action)).toEqual(["partner.add", "partner.remove"]);
  });
});

describe("revoking a partner's token", () => {
  it("stops the token at once and records who revoked what, before and after", async () => {
    expect((await authenticateToken(t.db, secretToken)).ok).toBe(true);
    expect(await revokePartnerToken(t.db, admin, tokenId)).toEqual({ revoked: true });
    expect(await authenticateToken(t.db, secretToken)).toMatchObject({ ok: false, reason: "revoked" });
    const { rows } = await t.db.execute<{
      actor: string;
      actor_id: string;
      action: string;
      target_type: string;
      before: unknown;
      after: unknown;
    }>(sql`SELECT actor, actor_id, action, target_type, before, after FROM audit_log WHERE target_id = ${tokenId}`);
    expect(rows).toEqual([
      {
        actor: admin.label,
        actor_id: admin.userId,
        action: "token.revoke",
        target_type: "api_token",
        before: expect.objectContaining({ name: "acme prod", owner: "acme-partner@example.com", revokedAt: null }),
        after: expect.objectContaining({ name: "acme prod", revokedAt: expect.stringMatching(/^\d{4}-/) }),
      },
    ]);
    const acme = (await listPartners(t.db, { email: "acme-partner" })).partners[0]!;
    expect(acme.tokens.find((tk) => tk.id === tokenId)!.revokedAt).toBeInstanceOf(Date);
  });

  it("changes and records nothing for a token already revoked; refuses unknown and storefront tokens", async () => {
    expect(await revokePartnerToken(t.db, admin, tokenId)).toEqual({ revoked: false });
    const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log WHERE target_id = ${tokenId}`);
    expect(rows[0]!.n).toBe(1);
    await expect(revokePartnerToken(t.db, admin, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      reason: "token_not_found",
    });
    const { rows: storefront } = await t.db.execute<{ id: string }>(sql`SELECT id FROM api_tokens WHERE purpose = 'storefront' LIMIT 1`);
    await expect(revokePartnerToken(t.db, admin, storefront[0]!.id)).rejects.toMatchObject({ reason: "token_not_found" });
  });
});

describe("outgoing mail", () => {
  it("lists messages newest first with their order, attempts and last error, filtered by status and recipient", async () => {
    await t.db.execute(
      sql`UPDATE mail_messages SET status = 'failed', attempt_count = 3, last_error = '550 mailbox unavailable' WHERE recipient = 'acme-buyer@example.com'`,
    );
    const all = await listMailPage(t.db, {});
    expect(all.total).toBeGreaterThanOrEqual(1);
    const created = all.messages.map((m) => m.createdAt.getTime());
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const failed = await listMailPage(t.db, { status: "failed", recipient: "ACME-BUYER" });
    expect(failed.total).toBe(1);
    expect(failed.messages[0]).toMatchObject({
      kind: "receipt",
      recipient: "acme-buyer@example.com",
      status: "failed",
      attemptCount: 3,
      lastError: "550 mailbox unavailable",
    });
    expect(failed.messages[0]!.intentId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await listMailPage(t.db, { status: "sent", recipient: "acme-buyer" })).total).toBe(0);
    // A LIKE wildcard in the search is matched literally.
    expect((await listMailPage(t.db, { recipient: "%" })).total).toBe(0);
  });
});
