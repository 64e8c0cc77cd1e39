// GET /api/health - liveness: the process serves requests (no dependencies checked)
import { withRequestContext } from "@/lib/api/request-context";

export const dynamic = "force-dynamic";

export const GET = withRequestContext(() => Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } }), { quiet: true });
