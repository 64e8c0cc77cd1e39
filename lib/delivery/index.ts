import "server-only";
import { env } from "@/lib/env";
import { manualDelivery } from "./manual";
import type { DeliveryProvider } from "./provider";
import { sandboxDelivery } from "./sandbox";

const providers: Record<DeliveryProvider["id"], DeliveryProvider> = { manual: manualDelivery, sandbox: sandboxDelivery };

/** The provider DELIVERY_PROVIDER names (for new deliveries). */
export function deliveryProvider(): DeliveryProvider {
  return providers[env.DELIVERY_PROVIDER];
}

/** The provider a stored delivery was made with. */
export function deliveryProviderById(id: string): DeliveryProvider | null {
  return id in providers ? providers[id as DeliveryProvider["id"]] : null;
}
