import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, createPool } from "@/lib/db/client";
import { reportManualDelivery, takeDelivery } from "@/lib/services/delivery";
import { hashToken } from "@/lib/services/tokens";
import { registerUser } from "@/lib/services/users";
import { Browser } from "./browser";
import { api, appQuery } from "./support";

// POST /intents/{id}/refund and the delivery fields of GET /intents/{id}, through the built server:
// a partner refunds until the order is delivered, and only a partner; a shopper's own token never
// gets the scope.

const tokens = inject("appTokens");
const base = () => inject("appBaseUrl");
const pool = createPool(inject("appDatabaseUrl"), 2);
const db = createDb(pool);
afterAll(() => pool.end());

async function paidGift(token?: string): Promise<string> {
  const created = await api("/api/v1/gifts/verify", {
    token,
    body: {
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: "refund@example.com",
      fee: "excluded",
    },
  });
  expect(created.status).toBe(201);
  const paid = await fetch(`${base()}/pay/${created.body.intentId}/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "choice=pay",
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  return created.body.intentId;
}

const refund = (intentId: string, options: { token?: string; body?: unknown; key?: string } = {}) =>
  api(`/api/v1/intents/${intentId}/refund`, {
    token: options.token,
    method: "POST",
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: options.key ? { "idempotency-key": options.key } : {},
  });

describe("a paid intent over HTTP", () => {
  it("reports the payment and the delivery beside the status, with the timeline", async () => {
    const id = await paidGift();
    const res = await api(`/api/v1/intents/${id}`);
    expect(res.body).toMatchObject({
      status: "paid",
      paymentStatus: "paid",
      deliveryStatus: "pending",
      deliveryStep: "queued",
      deliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      deliveryFailureReason: null,
    });
    expect(res.body.timeline.map((e: { value: string }) => e.value)).toEqual(["requires_payment", "paid", "queued"]);
  });
});

describe("POST /intents/{intentId}/refund", () => {
  it("refunds with no body at all, and again replays for the same Idempotency-Key", async () => {
    const id = await paidGift();
    const key = crypto.randomUUID();
    const first = await refund(id, { key });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "refunded", paymentStatus: "refunded", refundReason: "partner", deliveryStatus: "failed" });
    const again = await refund(id, { key });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("puts the note in the timeline; a second refund is 409 intent_state_conflict", async () => {
    const id = await paidGift();
    const first = await refund(id, { body: { note: "the friend already owns it" } });
    expect(first.body.timeline.at(-1)).toMatchObject({ value: "refunded", reason: "partner: the friend already owns it" });
    const second = await refund(id, { body: {} });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ reason: "intent_state_conflict" });
  });

  it.each([
    ["an unpaid intent", 409, "intent_state_conflict"],
    ["another owner's intent", 404, "intent_not_found"],
    ["a token without intents:refund", 403, "insufficient_scope"],
    ["an unknown field", 400, "unknown_field"],
  ])("refuses %s", async (what, status, reason) => {
    let id: string;
    let token: string | undefined;
    let body: unknown;
    if (what === "an unpaid intent") {
      const created = await api("/api/v1/gifts/verify", {
        body: {
          item: "620",
          target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
          email: "u@example.com",
          fee: "excluded",
        },
      });
      id = created.body.intentId;
    } else {
      id = await paidGift();
    }
    if (what === "another owner's intent") token = tokens.otherOwner;
    if (what === "a token without intents:refund") token = tokens.catalogOnly;
    if (what === "an unknown field") body = { amount: 1 };
    const res = await refund(id, { token, body });
    expect(res.status).toBe(status);
    expect(res.body.reason).toBe(reason);
  });
});

/** An operator takes the order's manual delivery and marks it delivered, as on the fulfilment queue. */
async function markDelivered(intentId: string): Promise<void> {
  const [delivery] = await appQuery<{ id: string }>("SELECT id FROM deliveries WHERE intent_id = $1", [intentId]);
  const [operator] = await appQuery<{ id: string }>(
    "INSERT INTO users (email) VALUES ($1) ON CONFLICT ((lower(email))) DO UPDATE SET email = excluded.email RETURNING id",
    ["refund-operator@staff.example.com"],
  );
  const actor = { userId: operator!.id, label: "refund-operator@staff.example.com" };
  await takeDelivery(db, delivery!.id, actor);
  await reportManualDelivery(db, delivery!.id, actor, { outcome: "delivered" }, base());
}

describe("refunds and delivery", () => {
  it("a partner refunds before delivery; once the operator marks it delivered, 409 intent_already_delivered and it stays delivered", async () => {
    const before = await paidGift();
    expect((await refund(before)).status).toBe(200);

    const after = await paidGift();
    await markDelivered(after);
    const res = await refund(after, { body: { note: "the friend did not like it" } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ reason: "intent_already_delivered" });
    const read = await api(`/api/v1/intents/${after}`);
    expect(read.body).toMatchObject({ status: "fulfilled", paymentStatus: "paid", deliveryStatus: "delivered" });
  });

  it("refuses an old intents:refund token of an account that is not a partner: 403 partner_required", async () => {
    const secret = `gk_live_${crypto.randomBytes(32).toString("base64url").replace(/[-_]/g, "a").slice(0, 43)}`;
    const [owner] = await appQuery<{ id: string }>("INSERT INTO users (email) VALUES ($1) RETURNING id", [
      `old-token-${crypto.randomBytes(3).toString("hex")}@example.com`,
    ]);
    // Made on the account page before the scope became partners' only: no service makes one now.
    await appQuery(
      "INSERT INTO api_tokens (user_id, name, prefix, token_hash, scopes) VALUES ($1, 'my shop', $2, $3, ARRAY['gifts:verify','intents:read','intents:refund'])",
      [owner!.id, secret.slice(0, 12), hashToken(secret)],
    );
    const id = await paidGift(secret);
    const res = await refund(id, { token: secret });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ reason: "partner_required" });
    expect((await api(`/api/v1/intents/${id}`, { token: secret })).body).toMatchObject({ status: "paid" });
  });

  it("never gives a shopper's account-page token intents:refund: the server refuses it even when the form is bypassed", async () => {
    const email = `self-service-${crypto.randomBytes(3).toString("hex")}@example.com`;
    const password = "correct horse battery";
    expect((await registerUser(db, { email, password })).ok).toBe(true);
    const browser = new Browser();
    expect((await browser.signIn(email, password)).status).toBe(200);
    const result = await createTokenAction(browser, { name: "my shop", scopes: ["intents:read", "intents:refund"], expiresInDays: 30 });
    expect(result).toMatchObject({ ok: false, reason: "partner_required" });
    expect(await appQuery("SELECT t.id FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = $1", [email])).toEqual([]);
    // The same form without the scope makes the token.
    expect(await createTokenAction(browser, { name: "my shop", scopes: ["intents:read"], expiresInDays: 30 })).toMatchObject({ ok: true });
  });
});

/** The account page's "New token" server action, called as the page's form calls it. */
async function createTokenAction(browser: Browser, input: unknown): Promise<Record<string, unknown>> {
  const manifest = JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, "../../.next/server/server-reference-manifest.json"), "utf8"),
  ) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(
    ([, a]) => a.filename === "app/account/actions.ts" && a.exportedName === "createTokenAction",
  )?.[0];
  expect(id).toBeDefined();
  const res = await browser.fetch("/account", {
    method: "POST",
    headers: { "next-action": id!, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: base() },
    body: JSON.stringify([input]),
  });
  expect(res.status).toBe(200);
  // The RSC answer: one line per chunk, the action's result on the line that starts with 1:.
  const line = (await res.text()).split("\n").find((l) => l.startsWith("1:"));
  return JSON.parse(line!.slice(2)) as Record<string, unknown>;
}
