// POST /admin/catalog/import - import an uploaded file of store appdetails responses, answering NDJSON progress lines
import { errorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { authorizeStaff } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { isDomainError } from "@/lib/errors";
import { originHost } from "@/lib/http/same-origin";
import { log } from "@/lib/log";
import { CATALOG_IMPORT_MAX_BYTES, type CatalogImportLine } from "@/lib/schemas/admin-catalog";
import { importCatalogFile } from "@/lib/services/admin-catalog";

export const POST = withRequestContext(async (request: Request) => {
  const staff = await authorizeStaff("catalog:write").catch((err: unknown) => {
    if (isDomainError(err)) return errorResponse(err.reason, err.details as never);
    throw err;
  });
  if (staff instanceof Response) return staff;
  // A form post from another site would carry the staff member's cookie: only the store's own page may upload.
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  if (originHost(request.headers.get("origin")) !== host) return errorResponse("forbidden_origin", { what: "catalog imports" });
  if (Number(request.headers.get("content-length") ?? 0) > CATALOG_IMPORT_MAX_BYTES + 64 * 1024)
    return errorResponse("body_too_large", { maxBytes: CATALOG_IMPORT_MAX_BYTES });
  const form = await request.formData().catch(() => null);
  const file = form?.get("file");
  if (!(file instanceof File) || file.size === 0)
    return errorResponse("invalid_field", { message: "file must be a JSON file of appdetails responses" }, { param: "file" });
  if (file.size > CATALOG_IMPORT_MAX_BYTES) return errorResponse("body_too_large", { maxBytes: CATALOG_IMPORT_MAX_BYTES });
  const text = await file.text();

  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: CatalogImportLine) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      try {
        const result = await importCatalogFile(getDb(), staff.actor, { name: file.name, text }, (done, total) =>
          send({ type: "progress", done, total }),
        );
        send({ type: "done", ...result });
      } catch (err) {
        log.error({ err, area: "catalog-import" }, "catalog import failed");
        send({ type: "failed", reason: "internal_error" });
      }
      controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" } });
});
