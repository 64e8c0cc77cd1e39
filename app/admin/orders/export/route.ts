// GET /admin/orders/export - the order list's filtered set as CSV (the list's own URL parameters)
import { authorizeStaff } from "@/lib/admin/session";
import { domainErrorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { getDb } from "@/lib/db/client";
import { isDomainError } from "@/lib/errors";
import { adminOrderFilterSchema, ADMIN_ORDERS_EXPORT_MAX } from "@/lib/schemas/admin-orders";
import { adminOrdersCsv, countAdminOrders } from "@/lib/services/admin-orders";

export const dynamic = "force-dynamic";

export const GET = withRequestContext(async (request: Request) => {
  try {
    await authorizeStaff("orders:read");
  } catch (err) {
    if (isDomainError(err)) return domainErrorResponse(err);
    throw err;
  }
  const filter = adminOrderFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const db = getDb();
  const { count, capped } = await countAdminOrders(db, filter, ADMIN_ORDERS_EXPORT_MAX);
  const rows = adminOrdersCsv(db, filter);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8; header=present",
      "content-disposition": `attachment; filename="orders-${day}.csv"`,
      "cache-control": "no-store",
      // How many rows the file holds; when it stopped at the cap, more matched (counting them all would
      // read every match before the first byte), else that is every match.
      "x-export-rows": String(count),
      ...(capped ? { "x-export-truncated": "true" } : { "x-total-count": String(count) }),
    },
  });
});
