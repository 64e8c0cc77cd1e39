import "server-only";
import type { DeliveryProvider } from "./provider";

/**
 * People deliver: a paid order waits in the fulfilment queue, someone takes it, sends the gift or the
 * trade offer by hand and marks it sent, delivered, or failed with a reason (lib/services/delivery.ts).
 * The worker never calls it.
 */
export const manualDelivery: DeliveryProvider = {
  id: "manual",
  automatic: false,
  sandbox: false,
  advance() {
    return Promise.reject(new Error("manual deliveries are moved by people, not by the worker"));
  },
};
