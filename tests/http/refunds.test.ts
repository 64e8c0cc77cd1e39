import crypto from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api } from "./support";

// POST /intents/{id}/refund and the delivery fields of GET /intents/{id}, through the built server.

const tokens = inject("appTokens");
const base = () => inject("appBaseUrl");

async function paidGift(): Promise<string> {
  const created = await api("/api/v1/gifts/verify", {
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
