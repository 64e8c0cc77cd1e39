// The "Callbacks" section of the API guide (lib/openapi.ts renders it with the others). Pure text:
// the reference page and openapi.json import it.
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./events";
import { RECEIVER_SERVER_SOURCE, RECEIVER_VERIFY_SOURCE } from "./receiver-example";
import { DEFAULT_RETRY_SCHEDULE, formatDelay, parseRetrySchedule } from "./schedule";

const delays = (parseRetrySchedule(DEFAULT_RETRY_SCHEDULE) ?? []).map(formatDelay);
const totalHours = Math.round((parseRetrySchedule(DEFAULT_RETRY_SCHEDULE) ?? []).reduce((a, b) => a + b, 0) / 3_600_000);

export const CALLBACKS_GUIDE: { title: string; body: string[] } = {
  title: "Callbacks",
  body: [
    'When an intent created with a `callbackUrl` is paid, the store POSTs an event to that URL: `{"type": "intent.paid", "timestamp": "2026-05-01T12:00:00.000Z", "data": {…}}`. `type` names the event, `timestamp` is when it happened (ISO 8601, UTC) and `data` holds the intent as it was then, exactly as GET /intents/{intentId} returns it (`id`, `status`, amounts, times). The body is fixed when the event happens: every attempt sends the same bytes.',
    "Beyond the callbackUrl, which hears of payments only, an account can register its own webhook endpoints on the account page (Webhooks), as many as 10: a URL (the same rules as callbackUrl), the event types it wants, and a secret of its own (`whsec_…`, shown when the endpoint is added and revealable later). Every change of an intent is an event, written in the same transaction as the change and sent once to each enabled endpoint subscribed to it: `intent.paid` (paid), `intent.delivered` (delivered to the recipient: the intent is fulfilled), `intent.delivery_failed` (delivery failed for good; sent before the refund that follows, so `data` still reads paid with `deliveryStatus: failed`), `intent.refunded` (the money went back: by you, an operator, or after a failed delivery), `intent.canceled` (the buyer declined) and `intent.expired` (not paid in time; sent when the store's sweep records it, within a minute of `expiresAt`). The body is the same `{type, timestamp, data}` with the intent as GET /intents/{intentId} returns it. A disabled endpoint's events wait and go out when it is enabled again. The account page also sends a `webhook.test` event on request (`data` names the endpoint, no intent), lists each endpoint's latest deliveries with their attempts and last answer, and resends any of them: the same body under the same `webhook-id`.",
    "Each request carries `webhook-id` (`msg_` and 32 hex digits, the same on every attempt of one event and on a resend of it from the account page), `webhook-timestamp` (Unix seconds of this attempt), `webhook-signature` (`v1,` and a base64 HMAC-SHA256), `Content-Type: application/json` and `User-Agent: GiftKey-Webhooks/1.0`.",
    "Callbacks are signed as the Standard Webhooks specification says, so its libraries (and Svix's) verify them as they are. The signed content is `webhook-id`, a dot, `webhook-timestamp`, a dot and the raw body; the key is the base64-decoded part of your secret after `whsec_`. Callbacks to a callbackUrl are signed with the account's secret (shown on the account page); events to a registered endpoint with that endpoint's own secret. `webhook-signature` may hold several space-separated signatures (while a secret is rotated): accept the message when any `v1` one matches. Verify the raw bytes before parsing the JSON, compare in constant time, and refuse a `webhook-timestamp` more than 5 minutes from your clock, which stops replays of a captured request.",
    "A receiver in plain Node.js (the store's own tests run this exact code against its callbacks):",
    `\`\`\`js\n${RECEIVER_VERIFY_SOURCE}\n${RECEIVER_SERVER_SOURCE}\`\`\``,
    `Any 2xx answer ends the delivery. \`410 Gone\` stops it for good: answer it for events you never want. Anything else (another status, a redirect, which is never followed, a timeout, a refused connection) is retried after ${delays.slice(0, -1).join(", ")} and ${delays.at(-1)}: ${delays.length + 1} attempts over about ${totalHours} hours, after which the delivery is marked failed. Every attempt is recorded with its status, duration and error.`,
    "Delivery is at least once. The event is written in the same transaction as the payment, so a paid intent always gets its callback, even if a server crashes before or while sending it; but the same event can arrive twice (an answer lost on the way, a server stopped mid-send), so remember the `webhook-id`s you have handled and answer 2xx to a repeat without acting on it again. Events are not guaranteed to arrive in order: the body's `timestamp` tells which came first.",
    "Callbacks go only to `https://` URLs on the public internet. The store resolves the host itself and refuses it when any of its addresses is private (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7), loopback, link-local, carrier-grade NAT (100.64.0.0/10), multicast, reserved, or a cloud metadata address (169.254.169.254, fd00:ec2::254), IPv4-mapped and NAT64 forms included; it then connects to the very address it checked, so a DNS answer that changes in between (rebinding) cannot redirect the request. An attempt has 10 seconds in all (WEBHOOK_TIMEOUT_MS) and at most 64 KiB of the answer is read (WEBHOOK_MAX_RESPONSE_BYTES): only the status counts. A callbackUrl that cannot pass these rules on its face (a literal address that is not public, or a local name: localhost and *.localhost, *.local, *.internal, home.arpa, a single label) is refused when the intent is created, with a 400 naming callbackUrl. For development, WEBHOOK_ALLOW_HOSTS names hosts exempt from the address rules and allowed over plain http.",
  ],
};

const signatureHeaders = [
  {
    name: "webhook-id",
    description: "`msg_` and 32 hex digits; the same on every attempt of one event: the receiver's dedupe key",
    schema: { type: "string", pattern: "^msg_[0-9a-f]{32}$" },
  },
  { name: "webhook-timestamp", description: "Unix seconds when this attempt was signed", schema: { type: "string", pattern: "^[0-9]+$" } },
  {
    name: "webhook-signature",
    description: "Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>` signatures",
    schema: { type: "string" },
  },
].map((h) => ({ ...h, in: "header", required: true }));

/** OpenAPI 3.1 `webhooks`: what the store sends to a `callbackUrl`. */
const EVENT_SUMMARIES: Record<WebhookEventType, string> = {
  "intent.paid": "An intent was paid; sent to the intent's callbackUrl and to the owner's endpoints subscribed to it",
  "intent.delivered": "What was bought reached the recipient (the intent is fulfilled); sent to subscribed endpoints",
  "intent.delivery_failed": "Delivery failed for good (the refund follows at once); sent to subscribed endpoints",
  "intent.refunded": "The money went back (refundReason says why); sent to subscribed endpoints",
  "intent.canceled": "The buyer declined on the payment page; sent to subscribed endpoints",
  "intent.expired": "The intent was not paid in time; sent to subscribed endpoints",
};

/** OpenAPI 3.1 `webhooks`: every event the store sends, each signed per Standard Webhooks. */
export const CALLBACK_WEBHOOKS = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Event`,
        summary: EVENT_SUMMARIES[type],
        parameters: signatureHeaders,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["type", "timestamp", "data"],
                properties: {
                  type: { type: "string", const: type },
                  timestamp: { type: "string", format: "date-time", description: "When the event happened" },
                  data: {
                    $ref: "#/components/schemas/Intent",
                    description: "The intent as it was then, as GET /intents/{intentId} returns it",
                  },
                },
              },
            },
          },
        },
        responses: {
          "2XX": { description: "Delivered: no more attempts" },
          410: { description: "Gone: no more attempts for this event" },
          default: { description: `Retried after ${delays.join(", ")}; then failed` },
        },
      },
    },
  ]),
);
