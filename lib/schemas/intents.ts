import { z } from "zod";
import "./zod-config";
import { DELIVERY_FAILURES, DELIVERY_STATUSES, DELIVERY_STEPS, INTENT_STATUSES } from "@/lib/intents/states";
import { CURRENCY, FEE_MODES } from "@/lib/money";
import { attributionSchema } from "./common";

export const intentStatusSchema = z.enum(INTENT_STATUSES).meta({
  id: "IntentStatus",
  description:
    "requires_payment → paid → fulfilled, or requires_payment → canceled | expired; paid or fulfilled → refunded. An unpaid intent past expiresAt reads as expired at once.",
});

export const timelineEntrySchema = z
  .object({
    at: z.iso.datetime({ offset: true }),
    kind: z
      .enum(["status", "delivery"])
      .meta({ description: "`status`: the intent moved to `value`; `delivery`: its delivery reached `value`" }),
    value: z
      .string()
      .meta({ description: "The new status, or the delivery's step or outcome (`friend_request_sent`, `retrying`, `failed`)" }),
    reason: z
      .string()
      .nullable()
      .meta({ description: "Why, when there is more to say (`delivered`, `delivery_failed`, a failure reason)" }),
  })
  .meta({ id: "TimelineEntry" });

export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

const timestamp = (description: string) => z.iso.datetime({ offset: true }).meta({ description });
const stamp = (description: string) => z.iso.datetime({ offset: true }).nullable().meta({ description });

/** GET /intents/{intentId}, and the `data` of every callback about an intent. */
export const intentSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(["gift", "gear"]),
    status: intentStatusSchema,
    paymentStatus: z.enum(["pending", "paid", "rejected", "refunded"]).meta({
      description:
        "The payment side, as the original service reports it: pending (unpaid), paid, rejected (declined or expired unpaid), refunded",
    }),
    deliveryStatus: z.enum(DELIVERY_STATUSES).nullable().meta({
      description:
        "The delivery side once paid: created, pending, retrying (an attempt failed; it will try again), delivered, failed; null before payment",
    }),
    deliveryId: z.uuid().nullable().meta({ description: "The delivery's id, once paid" }),
    deliveryStep: z
      .enum(DELIVERY_STEPS)
      .nullable()
      .meta({ description: "How far the delivery got: queued, taken, friend_request_sent, gift_sent, trade_offer_sent, accepted" }),
    deliveryFailureReason: z
      .enum(DELIVERY_FAILURES)
      .nullable()
      .meta({ description: "Why the delivery failed, by name; null unless it did" }),
    intentAmount: z.int().meta({ description: "Price of what is bought, before promo code and fee, kopecks" }),
    discountAmount: z.int().meta({ description: "Taken off by the promo code, kopecks" }),
    feeAmount: z.int().meta({ description: "The store's fee inside paymentAmount, kopecks" }),
    paymentAmount: z.int().meta({ description: "What the buyer pays, kopecks" }),
    currency: z.literal(CURRENCY),
    feeMode: z.enum(FEE_MODES),
    promoCode: z.string().nullable().meta({ description: "The promo code applied, upper-case" }),
    gift: z
      .object({
        appId: z.int(),
        packageId: z.int(),
        title: z.string().meta({ description: "The game's title" }),
        edition: z.string().meta({ description: "The edition (package) bought" }),
        region: z.string(),
        inviteUrl: z.string(),
        recipientSteamId64: z
          .string()
          .nullable()
          .meta({ description: "The friend's SteamID64, decoded from the invite link (null for intents made before it was)" }),
      })
      .meta({ id: "IntentGift" })
      .nullable()
      .meta({ description: "What is gifted; null for gear" }),
    gear: z
      .object({
        platform: z.string().meta({ description: "appId of the game the item belongs to" }),
        item: z.string(),
        title: z.string(),
        account: z.string().meta({ description: "SteamID64 the item goes to" }),
        tradeLink: z.string().nullable(),
        storeId: z.string().nullable(),
      })
      .meta({ id: "IntentGear" })
      .nullable()
      .meta({ description: "What gear is bought and for whom; null for gifts" }),
    email: z.string(),
    attribution: attributionSchema.nullable(),
    paymentUrl: z.url().meta({ description: "The payment page to send the buyer to" }),
    successUrl: z.string().nullable().meta({ description: "Where the payment page sends the buyer after paying" }),
    failureUrl: z.string().nullable().meta({ description: "Where the payment page sends the buyer after declining" }),
    callbackUrl: z.string().nullable().meta({ description: "Notified when the intent is paid" }),
    createdAt: timestamp("When the intent was created"),
    expiresAt: timestamp("Until when it can be paid (and holds its gear unit)"),
    paidAt: stamp("When it was paid"),
    fulfilledAt: stamp("When what was bought was delivered"),
    canceledAt: stamp("When the buyer declined"),
    expiredAt: stamp("When it ran out unpaid (equal to expiresAt)"),
    refundedAt: stamp("When the money went back"),
    refundReason: z.string().nullable().meta({ description: "delivery_failed, operator or partner" }),
    timeline: z.array(timelineEntrySchema).meta({ description: "Every change of the state and of the delivery, oldest first" }),
  })
  .meta({ id: "Intent" });

export type PublicIntent = z.infer<typeof intentSchema>;

/** POST /intents/{intentId}/refund: the body is optional; `note` says why, for the timeline. */
export const intentRefundRequestSchema = z
  .strictObject(
    {
      note: z
        .string({ error: "note must be a string" })
        .trim()
        .min(1, { error: "note must not be empty" })
        .max(500, { error: "note must be at most 500 characters" })
        .optional()
        .meta({ description: "Why the money goes back, for the intent's timeline", example: "customer asked" }),
    },
    { error: "the request body must be a JSON object" },
  )
  .meta({ id: "IntentRefundRequest" });

export type IntentRefundRequest = z.infer<typeof intentRefundRequestSchema>;
