import "server-only";
import { randomBytes } from "node:crypto";
import type { PaymentProvider } from "./provider";

/**
 * The built-in test provider: pressing Pay succeeds on the spot and no money moves. It still hands
 * out a payment reference, as a real provider would, so the records look alike.
 */
export const sandboxProvider: PaymentProvider = {
  id: "sandbox",
  sandbox: true,
  async startPayment() {
    return { outcome: "succeeded", providerPaymentId: `sbx_${randomBytes(12).toString("hex")}` };
  },
  /** At once, and derived from the payment, so a repeated request gives the same reference. */
  async refund({ providerPaymentId }) {
    return { providerRefundId: providerPaymentId.replace(/^sbx_/, "sbx_re_") };
  },
};
