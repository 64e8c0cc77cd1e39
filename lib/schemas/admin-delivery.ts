import { z } from "zod";
import { DELIVERY_FAILURES, type DeliveryFailure } from "@/lib/intents/states";
import "./zod-config";

// The back office's delivery controls (components/admin/delivery-actions.tsx) and their server
// actions (app/admin/queue/actions.ts) check the same shapes.

export const deliveryIdSchema = z.object({ deliveryId: z.uuid() });

/** The steps a person reports as sent: gifts go by friend request and gift, gear by trade offer. */
export const MANUAL_SENT_STEPS = ["friend_request_sent", "gift_sent", "trade_offer_sent"] as const;

/** Why a person says a delivery failed; the machine's own reasons (provider error, refund) are not theirs to give. */
export const MANUAL_FAILURES = DELIVERY_FAILURES.filter(
  (r): r is Exclude<DeliveryFailure, "provider_error" | "refunded_before_delivery"> =>
    r !== "provider_error" && r !== "refunded_before_delivery",
);

export const deliveryReportSchema = z.discriminatedUnion("outcome", [
  z.object({ deliveryId: z.uuid(), outcome: z.literal("sent"), step: z.enum(MANUAL_SENT_STEPS) }),
  z.object({ deliveryId: z.uuid(), outcome: z.literal("delivered") }),
  z.object({ deliveryId: z.uuid(), outcome: z.literal("failed"), reason: z.enum(MANUAL_FAILURES) }),
]);
export type DeliveryReportInput = z.infer<typeof deliveryReportSchema>;
