import { z } from "zod";
import "./zod-config";
import { INTENT_STATUSES } from "@/lib/intents/states";
import { CURRENCY, FEE_MODES } from "@/lib/money";
import { attributionSchema } from "./common";

export const intentStatusSchema = z.enum(INTENT_STATUSES).meta({
  id: "IntentStatus",
  description:
    "requires_payment → paid → fulfilled, or requires_payment → canceled | expired. An unpaid intent past expiresAt reads as expired at once.",
});

const timestamp = (description: string) => z.iso.datetime({ offset: true }).meta({ description });
const stamp = (description: string) => z.iso.datetime({ offset: true }).nullable().meta({ description });

/** GET /intents/{intentId}, and the `data` of every callback about an intent. */
export const intentSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(["gift", "gear"]),
    status: intentStatusSchema,
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
  })
  .meta({ id: "Intent" });

export type PublicIntent = z.infer<typeof intentSchema>;
