// GET /orders/{intentId}/status - the order page's live refresh: state and timeline, for the signed link's holder or the owner
import { errorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import type { OrderProgress } from "@/lib/orders/progress";
import { findOrderForViewer } from "@/lib/services/orders";

export const GET = withRequestContext(async (request: Request, { params }: { params: Promise<{ intentId: string }> }) => {
  const { intentId } = await params;
  const linkToken = new URL(request.url).searchParams.get("t");
  const user = await getSessionUser();
  const order = await findOrderForViewer(getDb(), intentId, { linkToken, userId: user?.id });
  // The same 404 for an unknown id, a wrong `t` and someone else's order: ids cannot be probed.
  if (!order) return errorResponse("intent_not_found", { intentId: intentId.slice(0, 64) }, { headers: { "Cache-Control": "no-store" } });
  const body: OrderProgress = {
    status: order.view.status,
    deliveryStatus: order.view.deliveryStatus,
    deliveryStep: order.view.deliveryStep,
    timeline: order.timeline,
  };
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
});
