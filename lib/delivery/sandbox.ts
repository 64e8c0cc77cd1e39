import "server-only";
import { env } from "@/lib/env";
import type { DeliveryFailure } from "@/lib/intents/states";
import type { DeliveryJob, DeliveryProgress, DeliveryProvider } from "./provider";

// A simulated store bot, for demos and tests: nothing is sent to anyone. It walks a gift through
// friend request sent -> gift sent -> accepted, and gear through trade offer sent -> accepted, one
// step per call, SANDBOX_DELIVERY_DELAY_MS apart. A test chooses the outcome by the recipient's
// token: the invite link's (`https://s.team/p/<code>/<TOKEN>`) or the trade link's (`&token=<TOKEN>`).
//   DECL…  declined (gift_declined / trade_offer_declined), for good
//   INVA…  invite_link_invalid (gifts), for good
//   PRIV…  inventory_private (gear), for good
//   EXPI…  trade_offer_expired (gear), for good
//   TIME…  friend_request_timeout: retried on DELIVERY_RETRY_SCHEDULE, then failed
//   FLAK…  the first attempt fails with provider_error and is retried; the retry delivers
// Any other token delivers.

function tokenOf(job: DeliveryJob): string {
  if (job.gift) return job.gift.inviteUrl.split("/").filter(Boolean).pop() ?? "";
  const link = job.gear?.tradeLink;
  return link ? (new URL(link).searchParams.get("token") ?? "") : "";
}

const failed = (reason: DeliveryFailure, retryable = false): DeliveryProgress => ({ outcome: "failed", reason, retryable });

export const sandboxDelivery: DeliveryProvider = {
  id: "sandbox",
  automatic: true,
  sandbox: true,
  async advance(job) {
    const token = tokenOf(job).toUpperCase();
    const wait = env.SANDBOX_DELIVERY_DELAY_MS;
    if (token.startsWith("FLAK") && job.attempt === 0) return failed("provider_error", true);
    if (job.kind === "gift") {
      if (token.startsWith("INVA")) return failed("invite_link_invalid");
      switch (job.step) {
        case "queued":
        case "taken":
          return { outcome: "progress", step: "friend_request_sent", checkAgainInMs: wait };
        case "friend_request_sent":
          if (token.startsWith("TIME")) return failed("friend_request_timeout", true);
          return { outcome: "progress", step: "gift_sent", checkAgainInMs: wait };
        default:
          return token.startsWith("DECL") ? failed("gift_declined") : { outcome: "delivered" };
      }
    }
    if (token.startsWith("PRIV")) return failed("inventory_private");
    if (job.step === "queued" || job.step === "taken") return { outcome: "progress", step: "trade_offer_sent", checkAgainInMs: wait };
    if (token.startsWith("DECL")) return failed("trade_offer_declined");
    if (token.startsWith("EXPI")) return failed("trade_offer_expired");
    return { outcome: "delivered" };
  },
};
