// GET /api/ready - readiness: the database is reachable and fully migrated
import { errorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { getDb } from "@/lib/db/client";
import { checkReadiness } from "@/lib/services/health";

export const dynamic = "force-dynamic";

export const GET = withRequestContext(async () => {
  const readiness = await checkReadiness(getDb());
  if (!readiness.ready) return errorResponse(503, `not ready: ${readiness.reason}`, { "Cache-Control": "no-store", "Retry-After": "5" });
  return Response.json({ status: "ready", migrations: readiness.migrations }, { headers: { "Cache-Control": "no-store" } });
}, { quiet: true });
