// GET /api/ready - readiness: the database is reachable and fully migrated
import { errorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { getDb } from "@/lib/db/client";
import { checkReadiness } from "@/lib/services/health";

export const dynamic = "force-dynamic";

export const GET = withRequestContext(
  async () => {
    const readiness = await checkReadiness(getDb());
    if (!readiness.ready)
      return errorResponse("service_unavailable", { what: `not ready: ${readiness.reason}` }, { headers: { "Cache-Control": "no-store" } });
    return Response.json({ status: "ready", migrations: readiness.migrations }, { headers: { "Cache-Control": "no-store" } });
  },
  { quiet: true },
);
