// GET /admin/campaigns/export - the campaign report of the URL's period as CSV (campaigns:read)
import { domainErrorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { authorizeStaff } from "@/lib/admin/session";
import { reportFilterOf } from "@/lib/campaigns/period";
import { storeDay } from "@/lib/campaigns/visits";
import { getDb } from "@/lib/db/client";
import { isDomainError } from "@/lib/errors";
import { campaignReportQuerySchema } from "@/lib/schemas/campaigns";
import { campaignReportCsv } from "@/lib/services/campaign-report";
import { flushCampaignVisits } from "@/lib/services/campaign-visits";

export const GET = withRequestContext(async (request: Request) => {
  try {
    await authorizeStaff("campaigns:read");
  } catch (err) {
    if (isDomainError(err)) return domainErrorResponse(err);
    throw err;
  }
  const query = campaignReportQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const filter = reportFilterOf(query, storeDay(new Date()));
  const db = getDb();
  await flushCampaignVisits(db);
  // A byte-order mark: spreadsheets then read the Cyrillic campaign names as UTF-8.
  const csv = `\uFEFF${await campaignReportCsv(db, filter, query.sort)}`;
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="campaigns-${filter.from}-${filter.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
});
