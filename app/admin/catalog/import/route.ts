// POST /admin/catalog/import - import an uploaded file of store appdetails responses, answering NDJSON progress lines
import { errorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { authorizeStaff } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { readAppdetails } from "@/lib/catalog/import-appdetails";
import { isDomainError } from "@/lib/errors";
import { readMultipartFile } from "@/lib/http/multipart-file";
import { originHost } from "@/lib/http/same-origin";
import { log } from "@/lib/log";
import { CATALOG_IMPORT_MAX_BYTES, type CatalogImportLine } from "@/lib/schemas/admin-catalog";
import { importCatalogFile } from "@/lib/services/admin-catalog";

/** The file and the form's framing around it. */
const MAX_BODY_BYTES = CATALOG_IMPORT_MAX_BYTES + 64 * 1024;

export const POST = withRequestContext(async (request: Request) => {
  const staff = await authorizeStaff("catalog:write").catch((err: unknown) => {
    if (isDomainError(err)) return errorResponse(err.reason, err.details as never);
    throw err;
  });
  if (staff instanceof Response) return staff;
  // A form post from another site would carry the staff member's cookie: only the store's own page may upload.
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  if (originHost(request.headers.get("origin")) !== host) return errorResponse("forbidden_origin", { what: "catalog imports" });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES)
    return errorResponse("body_too_large", { maxBytes: CATALOG_IMPORT_MAX_BYTES });
  // Read as it arrives, before any transaction: the file's lines are judged one at a time and only
  // the games and a bounded list of problems are kept (lib/catalog/import-appdetails.ts).
  const upload = readMultipartFile(request.body, request.headers.get("content-type"), {
    field: "file",
    maxFileBytes: CATALOG_IMPORT_MAX_BYTES,
    maxBodyBytes: MAX_BODY_BYTES,
  });
  const parsed = await readAppdetails(upload.chunks).catch((err: unknown) => {
    if (isDomainError(err)) return errorResponse(err.reason, err.details as never, { param: err.param });
    throw err;
  });
  if (parsed instanceof Response) return parsed;
  if (upload.bytes === 0)
    return errorResponse("invalid_field", { message: "file must be a JSON file of appdetails responses" }, { param: "file" });

  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: CatalogImportLine) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      // A line per percent at most: a file of 60,000 small games is 1,200 batches.
      let percent = -1;
      const progress = (done: number, total: number) => {
        if (Math.floor((done * 100) / total) === percent && done < total) return;
        percent = Math.floor((done * 100) / total);
        send({ type: "progress", done, total });
      };
      try {
        const result = await importCatalogFile(getDb(), staff.actor, { name: upload.filename, parsed }, progress);
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
