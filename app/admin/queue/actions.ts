"use server";

import { revalidatePath } from "next/cache";
import { adminAction } from "@/lib/admin/action";
import { getDb } from "@/lib/db/client";
import { deliveryIdSchema, deliveryReportSchema } from "@/lib/schemas/admin-delivery";
import { releaseDelivery, reportManualDelivery, retryDeliveryNow, takeDelivery } from "@/lib/services/delivery";
import { siteOrigin } from "@/lib/site-origin";

// The delivery controls (components/admin/delivery-actions.tsx), on the queue and on an order's page.

export const takeDeliveryAction = adminAction("orders:fulfil", deliveryIdSchema, async ({ deliveryId }, staff) => {
  await takeDelivery(getDb(), deliveryId, staff.actor);
  revalidatePath("/admin/queue");
  return {};
});

export const releaseDeliveryAction = adminAction("orders:fulfil", deliveryIdSchema, async ({ deliveryId }, staff) => {
  await releaseDelivery(getDb(), deliveryId, staff.actor);
  revalidatePath("/admin/queue");
  return {};
});

export const reportDeliveryAction = adminAction("orders:fulfil", deliveryReportSchema, async ({ deliveryId, ...report }, staff) => {
  // The origin goes into the shopper's mail and the partner's callback (links to the order).
  await reportManualDelivery(getDb(), deliveryId, staff.actor, report, await siteOrigin());
  revalidatePath("/admin/queue");
  return {};
});

export const retryDeliveryAction = adminAction("orders:fulfil", deliveryIdSchema, async ({ deliveryId }, staff) => {
  await retryDeliveryNow(getDb(), deliveryId, staff.actor);
  revalidatePath("/admin/queue");
  return {};
});
