import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

// Standard Webhooks (https://www.standardwebhooks.com): HMAC-SHA256 over `id.timestamp.body`,
// keyed with the base64-decoded part of a `whsec_` secret, sent as `v1,<base64>`. Receivers'
// existing Standard Webhooks or Svix libraries verify what we send without custom code.

const SECRET_PREFIX = "whsec_";

/** `webhook-id` of a delivery: stable across retries, so a receiver can drop duplicates. */
export function webhookMessageId(deliveryId: string): string {
  return `msg_${deliveryId.replaceAll("-", "")}`;
}

function signingKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
  if (key.length === 0) throw new Error("the webhook secret is empty");
  return key;
}

function digest(secret: string, id: string, timestamp: number, body: string | Buffer): Buffer {
  return createHmac("sha256", signingKey(secret)).update(`${id}.${timestamp}.`).update(body).digest();
}

/** The `webhook-signature` value for one message; `timestamp` is in whole seconds. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  return `v1,${digest(secret, id, timestamp, body).toString("base64")}`;
}

/** The three headers of a signed message, signed now unless `at` is given. */
export function webhookHeaders(secret: string, id: string, body: string | Buffer, at = new Date()): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, id, timestamp, body),
  };
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(" ") : value;
}

/**
 * Checks a received message as a receiver must: the timestamp within `toleranceSeconds` of now
 * (replays of old captures fail), and at least one `v1` signature in the space-separated list
 * (several appear while a secret is rotated) equal to ours, compared in constant time.
 * Throws WebhookVerificationError saying what is wrong.
 */
export function verifyWebhook(
  secret: string,
  headers: HeaderSource,
  body: string | Buffer,
  { toleranceSeconds = 300, now = new Date() }: { toleranceSeconds?: number; now?: Date } = {},
): void {
  const id = header(headers, "webhook-id");
  const timestampText = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestampText || !signatures)
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d{1,12}$/.test(timestampText)) throw new WebhookVerificationError("webhook-timestamp is not whole seconds");
  const timestamp = Number(timestampText);
  const skew = Math.floor(now.getTime() / 1000) - timestamp;
  if (skew > toleranceSeconds) throw new WebhookVerificationError("the message is too old");
  if (skew < -toleranceSeconds) throw new WebhookVerificationError("the message is timestamped in the future");
  const expected = digest(secret, id, timestamp, body);
  for (const candidate of signatures.split(" ")) {
    const [version, value] = candidate.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return;
  }
  throw new WebhookVerificationError("no matching signature");
}
