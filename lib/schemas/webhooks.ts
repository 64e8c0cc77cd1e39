import { z } from "zod";
import { callbackUrlSchema } from "./common";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import "./zod-config";

export { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, type WebhookEventType } from "@/lib/webhooks/events";

export const webhookEndpointCreateRequestSchema = z.strictObject({
  // The callbackUrl rule: https on a public host, unless WEBHOOK_ALLOW_HOSTS opens it (server only).
  url: callbackUrlSchema("url"),
  eventTypes: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `eventTypes must be some of: ${WEBHOOK_EVENT_TYPES.join(", ")}` }))
    .min(1, { error: "eventTypes must name at least one event" })
    .transform((types) => [...new Set(types)]),
});
export type WebhookEndpointCreateRequest = z.infer<typeof webhookEndpointCreateRequestSchema>;
export type WebhookEndpointFormField = keyof WebhookEndpointCreateRequest;

/** What the account page's webhook actions answer: a refusal by its catalogue reason (lib/errors.ts). */
export type CreateWebhookEndpointResult =
  | { ok: true; id: string; url: string; secret: string }
  | { ok: false; reason: "not_signed_in" }
  | { ok: false; reason: "webhook_endpoint_limit_reached"; max: number }
  | { ok: false; reason: "invalid_field"; fields: WebhookEndpointFormField[] };

/** A test event or resend refused by its endpoint's limit (a minute) or its account's (an hour). */
export type WebhookSendLimited = {
  ok: false;
  reason: "rate_limited";
  per: "endpoint" | "account";
  limit: number;
  retryAfterSeconds: number;
};

export type WebhookEndpointActionResult =
  { ok: true } | { ok: false; reason: "not_signed_in" | "webhook_endpoint_not_found" } | WebhookSendLimited;

export type ResendWebhookResult = { ok: true } | { ok: false; reason: "not_signed_in" | "webhook_delivery_not_found" } | WebhookSendLimited;
