// The events an owner's webhook endpoints can subscribe to: every change of an intent that matters
// after it is created. Plain constants: the database schema, the zod schemas and the pages read them.

export const WEBHOOK_EVENT_TYPES = [
  "intent.paid",
  "intent.delivered",
  "intent.delivery_failed",
  "intent.refunded",
  "intent.canceled",
  "intent.expired",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent on request from the account page, with no intent behind it. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** Endpoints one account may register; more is a pile of forgotten receivers, not a feature. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
