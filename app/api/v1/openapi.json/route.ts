// GET /api/v1/openapi.json - the OpenAPI 3.1 document, generated from the request and response schemas
import { buildOpenApiDocument } from "@/lib/openapi";

export const dynamic = "force-static";

export function GET(): Response {
  return Response.json(buildOpenApiDocument());
}
