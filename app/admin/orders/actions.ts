"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { adminAction } from "@/lib/admin/action";
import { getDb } from "@/lib/db/client";
import { originFromHeaders } from "@/lib/http/public-origin";
import { refundOrderRequestSchema, resendOrderCallbackRequestSchema, resendOrderMailRequestSchema } from "@/lib/schemas/admin-orders";
import { refundOrder, resendOrderCallback, resendOrderMail } from "@/lib/services/admin-orders";

// The order page's actions (/admin/orders/[id]); each checks its permission on the server and is
// audited by its service in the change's transaction.

const origin = async () => originFromHeaders(await headers());

export const refundOrderAction = adminAction("orders:refund", refundOrderRequestSchema, async (input, staff) => {
  const result = await refundOrder(getDb(), staff.actor, input, await origin());
  revalidatePath(`/admin/orders/${input.intentId}`);
  return result;
});

export const resendOrderMailAction = adminAction("mail:resend", resendOrderMailRequestSchema, async (input, staff) => {
  const result = await resendOrderMail(getDb(), staff.actor, input, await origin());
  revalidatePath(`/admin/orders/${input.intentId}`);
  return result;
});

export const resendOrderCallbackAction = adminAction("callbacks:resend", resendOrderCallbackRequestSchema, async (input, staff) => {
  const result = await resendOrderCallback(getDb(), staff.actor, input);
  revalidatePath(`/admin/orders/${input.intentId}`);
  return result;
});
