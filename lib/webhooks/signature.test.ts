import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECEIVER_VERIFY_SOURCE } from "./receiver-example";
import { signWebhook, verifyWebhook, webhookHeaders, webhookMessageId, WebhookVerificationError } from "./signature";

// The example published with the Standard Webhooks specification and its reference libraries.
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const vectorHeaders = {
  "webhook-id": VECTOR.id,
  "webhook-timestamp": String(VECTOR.timestamp),
  "webhook-signature": VECTOR.signature,
};
const atVector = { now: new Date(VECTOR.timestamp * 1000) };

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(32, 8).toString("base64")}`;
const BODY = JSON.stringify({
  type: "intent.paid",
  timestamp: "2026-01-02T03:04:05.000Z",
  data: { intentId: "x", amount: 37706, note: "Привет" },
});

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks test vector", () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("is HMAC-SHA256 of `id.timestamp.body` under the base64-decoded secret, computed independently", () => {
    const key = Buffer.from(SECRET.slice("whsec_".length), "base64");
    const expected = createHmac("sha256", key)
      .update(Buffer.from(`msg_1.1700000000.${BODY}`, "utf8"))
      .digest("base64");
    expect(signWebhook(SECRET, "msg_1", 1700000000, BODY)).toBe(`v1,${expected}`);
    expect(signWebhook(SECRET, "msg_1", 1700000000, Buffer.from(BODY))).toBe(`v1,${expected}`);
  });

  it("gives each delivery a `msg_` id without dashes", () => {
    expect(webhookMessageId("0f8fad5b-d9cb-469f-a165-70867728950e")).toBe("msg_0f8fad5bd9cb469fa16570867728950e");
  });
});

describe("verifyWebhook", () => {
  it("accepts the test vector at its time and within the tolerance", () => {
    expect(() => verifyWebhook(VECTOR.secret, vectorHeaders, VECTOR.body, atVector)).not.toThrow();
    const later = new Date((VECTOR.timestamp + 300) * 1000);
    expect(() => verifyWebhook(VECTOR.secret, vectorHeaders, VECTOR.body, { now: later })).not.toThrow();
  });

  it("accepts any one matching signature among several (secret rotation) and Headers objects", () => {
    const headers = new Headers({ ...vectorHeaders, "webhook-signature": `v1,bm9wZQ== v2,abc ${VECTOR.signature}` });
    expect(() => verifyWebhook(VECTOR.secret, headers, VECTOR.body, atVector)).not.toThrow();
  });

  it("round-trips what webhookHeaders signs", () => {
    const headers = webhookHeaders(SECRET, "msg_abc", BODY);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(() => verifyWebhook(SECRET, headers, BODY)).not.toThrow();
  });

  const bad: [string, Record<string, string>, string, string, string][] = [
    ["a changed body", vectorHeaders, '{"test": 2432232315}', VECTOR.secret, "no matching signature"],
    ["another secret", vectorHeaders, VECTOR.body, OTHER_SECRET, "no matching signature"],
    ["a changed id", { ...vectorHeaders, "webhook-id": "msg_other" }, VECTOR.body, VECTOR.secret, "no matching signature"],
    [
      "a changed timestamp",
      { ...vectorHeaders, "webhook-timestamp": String(VECTOR.timestamp + 1) },
      VECTOR.body,
      VECTOR.secret,
      "no matching signature",
    ],
    [
      "a v2 label on the right value",
      { ...vectorHeaders, "webhook-signature": VECTOR.signature.replace("v1,", "v2,") },
      VECTOR.body,
      VECTOR.secret,
      "no matching signature",
    ],
    [
      "a truncated signature",
      { ...vectorHeaders, "webhook-signature": VECTOR.signature.slice(0, 20) },
      VECTOR.body,
      VECTOR.secret,
      "no matching signature",
    ],
    [
      "no signature header",
      { "webhook-id": VECTOR.id, "webhook-timestamp": String(VECTOR.timestamp) },
      VECTOR.body,
      VECTOR.secret,
      "missing webhook-id, webhook-timestamp or webhook-signature",
    ],
    [
      "a non-numeric timestamp",
      { ...vectorHeaders, "webhook-timestamp": "1614265330.5" },
      VECTOR.body,
      VECTOR.secret,
      "webhook-timestamp is not whole seconds",
    ],
  ];
  it.each(bad)("refuses %s", (_, headers, body, secret, message) => {
    expect(() => verifyWebhook(secret, headers, body, atVector)).toThrow(new WebhookVerificationError(message));
  });

  it("refuses a message older or newer than the tolerance", () => {
    const tooLate = new Date((VECTOR.timestamp + 301) * 1000);
    const tooEarly = new Date((VECTOR.timestamp - 301) * 1000);
    expect(() => verifyWebhook(VECTOR.secret, vectorHeaders, VECTOR.body, { now: tooLate })).toThrow("the message is too old");
    expect(() => verifyWebhook(VECTOR.secret, vectorHeaders, VECTOR.body, { now: tooEarly })).toThrow(
      "the message is timestamped in the future",
    );
    expect(() => verifyWebhook(VECTOR.secret, vectorHeaders, VECTOR.body, { now: tooLate, toleranceSeconds: 600 })).not.toThrow();
  });
});

describe("the receiver example in the API guide", () => {
  let dir: string;
  let verifyGiftKeyCallback: (secret: string, headers: Record<string, string>, rawBody: string | Buffer) => boolean;

  beforeAll(async () => {
    // Run the exact text the guide shows, as a receiver would paste it into an ES module.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-receiver-"));
    const file = path.join(dir, "verify.mjs");
    fs.writeFileSync(file, RECEIVER_VERIFY_SOURCE);
    ({ verifyGiftKeyCallback } = await import(/* @vite-ignore */ pathToFileURL(file).href));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("accepts what the server signs, as a string or as the raw bytes", () => {
    const headers = webhookHeaders(SECRET, "msg_0f8fad5bd9cb469fa16570867728950e", BODY);
    expect(verifyGiftKeyCallback(SECRET, headers, BODY)).toBe(true);
    expect(verifyGiftKeyCallback(SECRET, headers, Buffer.from(BODY))).toBe(true);
  });

  it("accepts the Standard Webhooks vector when it is fresh", () => {
    const now = Math.floor(Date.now() / 1000);
    const fresh = {
      ...vectorHeaders,
      "webhook-timestamp": String(now),
      "webhook-signature": signWebhook(VECTOR.secret, VECTOR.id, now, VECTOR.body),
    };
    expect(verifyGiftKeyCallback(VECTOR.secret, fresh, VECTOR.body)).toBe(true);
    // The vector itself is from 2021: a receiver must refuse it as a replay.
    expect(verifyGiftKeyCallback(VECTOR.secret, vectorHeaders, VECTOR.body)).toBe(false);
  });

  it("refuses tampering, another secret, stale messages and missing headers", () => {
    const headers = webhookHeaders(SECRET, "msg_1", BODY);
    expect(verifyGiftKeyCallback(SECRET, headers, BODY.replace("37706", "37707"))).toBe(false);
    expect(verifyGiftKeyCallback(OTHER_SECRET, headers, BODY)).toBe(false);
    expect(verifyGiftKeyCallback(SECRET, webhookHeaders(SECRET, "msg_1", BODY, new Date(Date.now() - 301_000)), BODY)).toBe(false);
    expect(verifyGiftKeyCallback(SECRET, { "webhook-id": "msg_1", "webhook-timestamp": headers["webhook-timestamp"]! }, BODY)).toBe(false);
  });

  it("accepts one good signature among several", () => {
    const headers = webhookHeaders(SECRET, "msg_1", BODY);
    const rotated = {
      ...headers,
      "webhook-signature": `${signWebhook(OTHER_SECRET, "msg_1", Number(headers["webhook-timestamp"]), BODY)} ${headers["webhook-signature"]}`,
    };
    expect(verifyGiftKeyCallback(SECRET, rotated, BODY)).toBe(true);
    expect(verifyGiftKeyCallback(OTHER_SECRET, rotated, BODY)).toBe(true);
  });
});
