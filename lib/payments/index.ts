import "server-only";
import { env } from "@/lib/env";
import type { PaymentProvider } from "./provider";
import { sandboxProvider } from "./sandbox";

const providers: Record<typeof env.PAYMENT_PROVIDER, PaymentProvider> = { sandbox: sandboxProvider };

/** The provider PAYMENT_PROVIDER names. */
export function paymentProvider(): PaymentProvider {
  return providers[env.PAYMENT_PROVIDER];
}
