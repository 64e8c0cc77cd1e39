import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookDeliveries } from "@/lib/db/schema";
import type { DomainError } from "@/lib/errors";
import type * as Delivery from "@/lib/services/delivery";
import type * as Endpoints from "@/lib/services/webhook-endpoints";
import type * as Gifts from "@/lib/services/gifts";
import type * as Lifecycle from "@/lib/services/intent-lifecycle";
import type * as Refunds from "@/lib/services/refunds";
import type * as Tokens from "@/lib/services/tokens";
import type * as WebhookDelivery from "@/lib/services/webhook-delivery";
import type { AuthToken } from "@/lib/services/tokens";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/webhooks/events";
import { verifyWebhook, webhookMessageId } from "@/lib/webhooks/signature";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { startReceiver, type Receiver } from "@/tests/support/receiver";

// Webhook endpoints on PostgreSQL: every intent event reaches each enabled endpoint subscribed to
// it exactly once, in the change's transaction; callbackUrl still hears of payments only; the cap
// holds under concurrent registration; a resend is a new delivery of the same bytes and message
// id; and a real loopback receiver verifies what it gets with the endpoint's own secret.
vi.hoisted(() => {
  process.env.DELIVERY_PROVIDER = "sandbox";
  process.env.SANDBOX_DELIVERY_DELAY_MS = "0";
  process.env.DELIVERY_RETRY_SCHEDULE = "0s";
});

const ORIGIN = "https://store.example.com";
const CALLBACK = "https://partner.example.com/giftkey/callback";
let t: TestDatabase;
let receiver: Receiver;
let token: AuthToken;
let delivery: typeof Delivery;
let endpoints: typeof Endpoints;
let gifts: typeof Gifts;
let lifecycle: typeof Lifecycle;
let refunds: typeof Refunds;
let tokens: typeof Tokens;
let sender: typeof WebhookDelivery;
let all: Endpoints.WebhookEndpoint;
let paidOnly: Endpoints.WebhookEndpoint;
let disabled: Endpoints.WebhookEndpoint;

beforeAll(async () => {
  [delivery, endpoints, gifts, lifecycle, refunds, tokens, sender] = await Promise.all([
    import("@/lib/services/delivery"),
    import("@/lib/services/webhook-endpoints"),
    import("@/lib/services/gifts"),
    import("@/lib/services/intent-lifecycle"),
    import("@/lib/services/refunds"),
    import("@/lib/services/tokens"),
    import("@/lib/services/webhook-delivery"),
  ]);
  t = await createTestDatabase();
  receiver = await startReceiver();
  const userId = await tokens.ensureUser(t.db, "hooks-partner@example.com");
  const { makePartner } = await import("@/lib/services/partners");
  await makePartner(t.db, { userId: null, label: "cli" }, "hooks-partner@example.com");
  const created = await tokens.createApiToken(t.db, { userId, name: "partner", scopes: ["gifts:verify", "intents:read"] });
  token = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  const add = (url: string, eventTypes: WebhookEventType[]) => endpoints.createWebhookEndpoint(t.db, { userId, url, eventTypes });
  all = await add("https://hooks.example.com/all", [...WEBHOOK_EVENT_TYPES]);
  paidOnly = await add("https://hooks.example.com/paid", ["intent.paid"]);
  disabled = await add("https://hooks.example.com/off", [...WEBHOOK_EVENT_TYPES]);
  await endpoints.setWebhookEndpointEnabled(t.db, userId, disabled.id, false);
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function newGift(inviteToken: string): Promise<string> {
  const { giftVerifyRequestSchema } = await import("@/lib/schemas/gifts");
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: `https://s.team/p/fhgc-rdqr/${inviteToken}`, region: "RU" },
    email: "friend-buyer@example.com",
    fee: "excluded",
    callbackUrl: CALLBACK,
  });
  return (await gifts.verifyGift(t.db, token, body, ORIGIN)).intentId;
}

const pay = (intentId: string) =>
  lifecycle.payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: `sbx_${intentId.slice(0, 8)}`, origin: ORIGIN });

/** The sandbox delivery worker's passes until nothing is due. */
async function work(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const claimed = await delivery.claimDueDeliveries(t.db, 50, 60_000);
    if (claimed.length === 0) return;
    for (const d of claimed) await delivery.attemptDelivery(t.db, d, ORIGIN);
  }
}

/** Each outbox row of an intent as `event -> receiver` (`callback` for callbackUrl), in order. */
async function sent(intentId: string): Promise<string[]> {
  const names = new Map([
    [all.id, "all"],
    [paidOnly.id, "paid"],
    [disabled.id, "off"],
  ]);
  const rows = await t.db
    .select({ type: webhookDeliveries.eventType, endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.intentId, intentId))
    .orderBy(webhookDeliveries.createdAt, webhookDeliveries.eventType, webhookDeliveries.url);
  return rows.map((r) => `${r.type} -> ${r.endpointId ? names.get(r.endpointId) : "callback"}`).sort();
}

describe("intent events to endpoints", () => {
  it("a delivered gift: intent.paid to the callbackUrl and both paid subscribers, intent.delivered to `all`; the disabled one gets nothing", async () => {
    const intentId = await newGift("NQVGTQPG");
    await pay(intentId);
    await work();
    expect(await sent(intentId)).toEqual([
      "intent.delivered -> all",
      "intent.paid -> all",
      "intent.paid -> callback",
      "intent.paid -> paid",
    ]);
  });

  it("a failed delivery: intent.delivery_failed before intent.refunded, the body showing the intent still paid; the callbackUrl hears only intent.paid", async () => {
    const intentId = await newGift("DECLINED");
    await pay(intentId);
    await work();
    expect(await sent(intentId)).toEqual([
      "intent.delivery_failed -> all",
      "intent.paid -> all",
      "intent.paid -> callback",
      "intent.paid -> paid",
      "intent.refunded -> all",
    ]);
    const bodies = await t.db
      .select({ type: webhookDeliveries.eventType, body: webhookDeliveries.body })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.intentId, intentId), eq(webhookDeliveries.endpointId, all.id)));
    const body = (type: string) => JSON.parse(bodies.find((b) => b.type === type)!.body);
    expect(body("intent.delivery_failed")).toMatchObject({
      type: "intent.delivery_failed",
      data: { id: intentId, status: "paid", deliveryStatus: "failed", deliveryFailureReason: "gift_declined" },
    });
    expect(body("intent.refunded")).toMatchObject({ data: { status: "refunded", refundReason: "delivery_failed" } });
    expect(Date.parse(body("intent.refunded").timestamp)).toBeGreaterThanOrEqual(Date.parse(body("intent.delivery_failed").timestamp));
  });

  it("a partner's refund, a cancellation and an expiry reach `all` only, once each", async () => {
    const refunded = await newGift("NQVGTQPG");
    await pay(refunded);
    await refunds.refundIntent(t.db, refunded, { by: { kind: "partner", userId: token.userId, label: "token partner" }, origin: ORIGIN });
    expect((await sent(refunded)).filter((e) => e.startsWith("intent.refunded"))).toEqual(["intent.refunded -> all"]);

    const canceled = await newGift("NQVGTQPG");
    await lifecycle.cancelIntent(t.db, canceled, ORIGIN);
    expect(await sent(canceled)).toEqual(["intent.canceled -> all"]);

    const expired = await newGift("NQVGTQPG");
    await t.db.execute(sql`UPDATE intents SET expires_at = now() - interval '1 second' WHERE id = ${expired}`);
    expect(await lifecycle.expireDueIntents(t.db, { origin: ORIGIN })).toBeGreaterThanOrEqual(1);
    expect(await lifecycle.expireDueIntents(t.db, { origin: ORIGIN })).toBe(0);
    expect(await sent(expired)).toEqual(["intent.expired -> all"]);
    const [row] = await t.db
      .select({ body: webhookDeliveries.body })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.intentId, expired));
    expect(JSON.parse(row!.body)).toMatchObject({
      type: "intent.expired",
      data: { id: expired, status: "expired", paymentUrl: `${ORIGIN}/pay/${expired}` },
    });
  });

  it("the database refuses a second delivery of one event to one endpoint, and to one callbackUrl", async () => {
    const intentId = await newGift("NQVGTQPG");
    await pay(intentId);
    const again = (endpointId: string | null) =>
      t.db
        .insert(webhookDeliveries)
        .values({ intentId, userId: token.userId, endpointId, eventType: "intent.paid", url: "https://x.example", body: "{}" });
    await expect(again(all.id)).rejects.toThrow();
    await expect(again(null)).rejects.toThrow();
  });
});

describe("endpoints on the account page", () => {
  it("holds the cap of 10 under 16 concurrent registrations", async () => {
    const userId = await tokens.ensureUser(t.db, "hooks-cap@example.com");
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) =>
        endpoints.createWebhookEndpoint(t.db, { userId, url: `https://hooks.example.com/${i}`, eventTypes: ["intent.paid"] }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    const refused = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as DomainError).reason] : []));
    expect(refused).toEqual(Array(6).fill("webhook_endpoint_limit_reached"));
    expect(await endpoints.listWebhookEndpoints(t.db, userId)).toHaveLength(10);
  });

  it("resend makes a new delivery with the same body and webhook-id; another owner can neither resend nor touch the endpoint", async () => {
    const intentId = await newGift("NQVGTQPG");
    await pay(intentId);
    const [original] = await t.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.intentId, intentId), eq(webhookDeliveries.endpointId, paidOnly.id)));
    const resentId = await endpoints.resendWebhookDelivery(t.db, token.userId, original!.id);
    const [copy] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, resentId));
    expect(copy).toMatchObject({
      body: original!.body,
      eventType: "intent.paid",
      endpointId: paidOnly.id,
      resendOf: original!.id,
      status: "pending",
    });
    // A resend of the resend still names the first delivery: one message id for the receiver to dedupe.
    const second = await endpoints.resendWebhookDelivery(t.db, token.userId, resentId);
    const [copy2] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, second));
    expect(copy2!.resendOf).toBe(original!.id);

    const stranger = await tokens.ensureUser(t.db, "hooks-stranger@example.com");
    await expect(endpoints.resendWebhookDelivery(t.db, stranger, original!.id)).rejects.toMatchObject({
      reason: "webhook_delivery_not_found",
    });
    await expect(endpoints.setWebhookEndpointEnabled(t.db, stranger, all.id, false)).rejects.toMatchObject({
      reason: "webhook_endpoint_not_found",
    });
    await expect(endpoints.deleteWebhookEndpoint(t.db, stranger, all.id)).rejects.toMatchObject({ reason: "webhook_endpoint_not_found" });
    await expect(endpoints.sendTestEvent(t.db, stranger, all.id)).rejects.toMatchObject({ reason: "webhook_endpoint_not_found" });
  });

  it("sends to a real loopback receiver signed with the endpoint's secret (not the owner's), the resend under the original's webhook-id; the log shows it", async () => {
    const userId = await tokens.ensureUser(t.db, "hooks-receiver@example.com");
    const endpoint = await endpoints.createWebhookEndpoint(t.db, { userId, url: `${receiver.url}/hooks`, eventTypes: ["intent.paid"] });
    const testId = await endpoints.sendTestEvent(t.db, userId, endpoint.id);
    const resentId = await endpoints.resendWebhookDelivery(t.db, userId, testId);
    // Everything else due in this database is stopped, so only these two go out.
    await t.db.execute(
      sql`UPDATE webhook_deliveries SET status = 'stopped' WHERE status = 'pending' AND id NOT IN (${testId}, ${resentId})`,
    );
    const config = { retryDelaysMs: [], timeoutMs: 2_000, maxResponseBytes: 1024, allowHosts: new Set(["127.0.0.1"]), leaseMs: 10_000 };
    const claimed = await sender.claimDueDeliveries(t.db, 10, config.leaseMs);
    expect(claimed.map((c) => c.id).sort()).toEqual([testId, resentId].sort());
    for (const c of claimed) expect(await sender.attemptDelivery(t.db, c, config)).toBe("delivered");

    const received = await receiver.waitForRequests(2);
    const { getOrCreateWebhookSecret } = await import("@/lib/services/webhook-secrets");
    const ownerSecret = await getOrCreateWebhookSecret(t.db, userId);
    for (const req of received) {
      expect(() => verifyWebhook(endpoint.secret, req.headers, req.body)).not.toThrow();
      expect(() => verifyWebhook(ownerSecret, req.headers, req.body)).toThrow(/no matching signature/);
      expect(req.headers["webhook-id"]).toBe(webhookMessageId(testId));
      expect(JSON.parse(req.body)).toMatchObject({ type: "webhook.test", data: { endpointId: endpoint.id } });
    }
    expect(received[0]!.body).toBe(received[1]!.body);

    const log = (await endpoints.listEndpointDeliveries(t.db, userId)).get(endpoint.id)!;
    expect(log.map((d) => [d.eventType, d.status, d.attemptCount, d.lastResponseStatus, d.resent])).toEqual([
      ["webhook.test", "delivered", 1, 204, true],
      ["webhook.test", "delivered", 1, 204, false],
    ]);
  });

  it("tells the owner, and the back office, that a host is not public without saying what it resolved to; the server log has it", async () => {
    const { log } = await import("@/lib/log");
    const { listPartners } = await import("@/lib/services/partners");
    const warned = vi.spyOn(log, "warn");
    const userId = await tokens.ensureUser(t.db, "hooks-split-horizon@example.com");
    const endpoint = await endpoints.createWebhookEndpoint(t.db, {
      userId,
      url: "https://intranet.partner-split.example/hook",
      eventTypes: ["intent.paid"],
    });
    const id = await endpoints.sendTestEvent(t.db, userId, endpoint.id);
    await t.db.execute(sql`UPDATE webhook_deliveries SET status = 'stopped' WHERE status = 'pending' AND id <> ${id}`);
    // The store's resolver answers with an address of its own network for the partner's name.
    const resolve = async () => [{ address: "10.20.30.40", family: 4 }];
    const config = { retryDelaysMs: [], timeoutMs: 2_000, maxResponseBytes: 1024, allowHosts: new Set<string>(), leaseMs: 10_000, resolve };
    const [claimed] = await sender.claimDueDeliveries(t.db, 10, config.leaseMs);
    expect(claimed?.id).toBe(id);
    expect(await sender.attemptDelivery(t.db, claimed!, config)).toBe("failed");

    const said =
      "the callback host intranet.partner-split.example resolves to an address that is not public, which callbacks may not reach";
    const [shown] = (await endpoints.listEndpointDeliveries(t.db, userId)).get(endpoint.id)!;
    expect(shown).toMatchObject({ status: "failed", lastResponseStatus: null, lastError: said });
    const { partners } = await listPartners(t.db, { email: "hooks-split-horizon@example.com" });
    expect(partners[0]!.endpoints[0]!.failing[0]!.lastError).toBe(said);
    const stored = await t.db.execute<{ error: string }>(sql`SELECT error FROM webhook_attempts WHERE delivery_id = ${id}`);
    expect(stored.rows.map((r) => r.error)).toEqual([said]);
    expect(JSON.stringify(stored.rows)).not.toContain("10.20.30.40");
    expect(warned).toHaveBeenCalledWith(
      expect.objectContaining({
        area: "callbacks",
        deliveryId: id,
        host: "intranet.partner-split.example",
        address: "10.20.30.40",
        kind: "private",
      }),
      "callback host resolves to an address that is not public",
    );
    warned.mockRestore();
  });

  describe("test events and resends, limited per endpoint and per account", () => {
    /** A burst must not straddle the end of a minute: the endpoint's window (and the account's hour) would start afresh in it. */
    const awayFromAWindowsEnd = async () => {
      const intoMinute = (Date.now() / 1000) % 60;
      if (intoMinute > 45) await new Promise((r) => setTimeout(r, (61 - intoMinute) * 1000));
    };
    const settled = async (attempts: Promise<string>[]) => {
      const results = await Promise.allSettled(attempts);
      const refusals = results.flatMap((r) => (r.status === "rejected" ? [r.reason as DomainError<"rate_limited">] : []));
      return { accepted: results.filter((r) => r.status === "fulfilled").length, refusals };
    };
    const deliveriesTo = async (endpointId: string) =>
      (await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${endpointId}`)).rows[0]!
        .n;

    it("accepts at most 10 of 200 concurrent test events to one endpoint; resends count too", async () => {
      await awayFromAWindowsEnd();
      const userId = await tokens.ensureUser(t.db, "hooks-reflector@example.com");
      const endpoint = await endpoints.createWebhookEndpoint(t.db, {
        userId,
        url: "https://reflect.example.com/hook",
        eventTypes: ["intent.paid"],
      });
      const burst = await settled(Array.from({ length: 200 }, () => endpoints.sendTestEvent(t.db, userId, endpoint.id)));
      expect(burst.accepted).toBeLessThanOrEqual(10);
      expect(burst.accepted).toBeGreaterThan(0);
      expect(burst.refusals).toHaveLength(200 - burst.accepted);
      // Counted at once, a burst runs past the account's 30 too; a refusal names the limit that frees up last.
      const policies = {
        "test events and resends to this endpoint": ["webhook_sends_endpoint", 10, 60],
        "test events and resends for this account": ["webhook_sends_account", 30, 3600],
      };
      for (const refusal of burst.refusals) {
        expect(refusal.reason).toBe("rate_limited");
        const [policy, limit, windowSeconds] = policies[refusal.details.what as keyof typeof policies];
        expect(refusal.details.state).toMatchObject({ policy, limit, windowSeconds });
        expect(refusal.details.state.resetSeconds).toBeGreaterThanOrEqual(1);
      }
      expect(burst.refusals.some((r) => r.details.what === "test events and resends to this endpoint")).toBe(true);
      expect(await deliveriesTo(endpoint.id)).toBe(burst.accepted);
      const [first] = (await endpoints.listEndpointDeliveries(t.db, userId)).get(endpoint.id)!;
      const resends = await settled(Array.from({ length: 20 }, () => endpoints.resendWebhookDelivery(t.db, userId, first!.id)));
      expect(burst.accepted + resends.accepted).toBeLessThanOrEqual(10);
      expect(resends.refusals.every((r) => r.reason === "rate_limited")).toBe(true);
      expect(await deliveriesTo(endpoint.id)).toBe(burst.accepted + resends.accepted);
    });

    it("accepts at most 30 an hour for one account, over all its endpoints", async () => {
      await awayFromAWindowsEnd();
      const userId = await tokens.ensureUser(t.db, "hooks-many-endpoints@example.com");
      const owned = [];
      for (let i = 0; i < 5; i++)
        owned.push(
          await endpoints.createWebhookEndpoint(t.db, { userId, url: `https://many.example.com/${i}`, eventTypes: ["intent.paid"] }),
        );
      const burst = await settled(owned.flatMap((e) => Array.from({ length: 20 }, () => endpoints.sendTestEvent(t.db, userId, e.id))));
      expect(burst.accepted).toBeLessThanOrEqual(30);
      expect(burst.refusals.some((r) => r.details.what === "test events and resends for this account")).toBe(true);
      let sent = 0;
      for (const e of owned) sent += await deliveriesTo(e.id);
      expect(sent).toBe(burst.accepted);
      // Another account's endpoint is not held up.
      const other = await tokens.ensureUser(t.db, "hooks-neighbour@example.com");
      const theirs = await endpoints.createWebhookEndpoint(t.db, {
        userId: other,
        url: "https://many.example.com/other",
        eventTypes: ["intent.paid"],
      });
      await expect(endpoints.sendTestEvent(t.db, other, theirs.id)).resolves.toEqual(expect.any(String));
    });
  });

  it("rewords the attempts recorded before without their addresses (migration 0028)", async () => {
    const userId = await tokens.ensureUser(t.db, "hooks-old-attempts@example.com");
    const endpoint = await endpoints.createWebhookEndpoint(t.db, {
      userId,
      url: "https://old.partner.example/hook",
      eventTypes: ["intent.paid"],
    });
    const id = await endpoints.sendTestEvent(t.db, userId, endpoint.id);
    const old = [
      "the callback host old.partner.example resolves to 192.168.0.10 (private), which callbacks may not reach",
      "the callback host 127.0.0.1 resolves to 127.0.0.1 (loopback), which callbacks may not reach",
      "the callback host fd00:ec2::254 resolves to fd00:ec2::254 (metadata), which callbacks may not reach",
      "the callback host old.partner.example resolves to fd12::1 (unique-local), which callbacks may not reach",
      "connection refused (ECONNREFUSED)",
    ];
    for (const [i, error] of old.entries())
      await t.db.execute(
        sql`INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, error) VALUES (${id}, ${i + 1}, now(), 1, ${error})`,
      );
    const migration = fs.readFileSync(path.resolve(import.meta.dirname, "../../drizzle/0028_webhook_errors_without_addresses.sql"), "utf8");
    await t.pool.query(migration);
    const { rows } = await t.db.execute<{ error: string }>(
      sql`SELECT error FROM webhook_attempts WHERE delivery_id = ${id} ORDER BY attempt`,
    );
    expect(rows.map((r) => r.error)).toEqual([
      "the callback host old.partner.example resolves to an address that is not public, which callbacks may not reach",
      "the callback host 127.0.0.1 is not a public address, which callbacks may not reach",
      "the callback host fd00:ec2::254 is not a public address, which callbacks may not reach",
      "the callback host old.partner.example resolves to an address that is not public, which callbacks may not reach",
      "connection refused (ECONNREFUSED)",
    ]);
  });

  it("a disabled endpoint's deliveries wait, pending, and go out once it is enabled again", async () => {
    const userId = await tokens.ensureUser(t.db, "hooks-paused@example.com");
    const endpoint = await endpoints.createWebhookEndpoint(t.db, { userId, url: `${receiver.url}/paused`, eventTypes: ["intent.paid"] });
    await endpoints.setWebhookEndpointEnabled(t.db, userId, endpoint.id, false);
    const id = await endpoints.sendTestEvent(t.db, userId, endpoint.id);
    expect((await sender.claimDueDeliveries(t.db, 50, 10_000)).map((c) => c.id)).not.toContain(id);
    await endpoints.setWebhookEndpointEnabled(t.db, userId, endpoint.id, true);
    expect((await sender.claimDueDeliveries(t.db, 50, 10_000)).map((c) => c.id)).toContain(id);
  });
});
