import { z } from "zod";
import { ENDPOINTS, reasonsOf, type Endpoint } from "@/lib/api/endpoints";
import { API_GUIDE } from "@/lib/api/guide";
import { REASONS } from "@/lib/api/reasons";
import type { Reason } from "@/lib/errors";
import { errorSchema } from "@/lib/schemas/common";
import { CALLBACK_WEBHOOKS } from "@/lib/webhooks/guide";

type JsonSchema = Record<string, unknown>;

/** Every schema the document describes; named ones among them (and within them) become components. */
const DOCUMENTED_SCHEMAS: z.ZodType[] = [
  errorSchema,
  ...Object.values(ENDPOINTS).flatMap((e): z.ZodType[] => [e.query, e.body, e.response.schema].filter((s) => s !== undefined)),
];

/**
 * The named schemas reachable from DOCUMENTED_SCHEMAS, in a registry of their own. Next bundles a
 * module once per route, so one server process can hold two copies of a schema under one id in
 * zod's global registry (the API routes' and this page's); converting that registry would mix
 * copies. Walking from this module's own imports keeps to one copy.
 */
function documentRegistry() {
  const registry = z.registry<z.GlobalMeta>();
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== "object" || seen.has(value)) return;
    seen.add(value);
    if (value instanceof z.ZodType) {
      const meta = z.globalRegistry.get(value);
      if (meta) registry.add(value, meta);
      visit((value as unknown as { _zod: { def: unknown } })._zod.def);
      return;
    }
    for (const inner of Array.isArray(value) ? value : Object.values(value)) visit(inner);
  };
  for (const schema of DOCUMENTED_SCHEMAS) visit(schema);
  return registry;
}

function componentSchemas(io: "input" | "output"): Record<string, JsonSchema> {
  const registry = documentRegistry();
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: "any",
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) delete schema.$schema;
  return schemas;
}

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${z.globalRegistry.get(schema)?.id}` });

function queryParameters(schema: z.ZodObject) {
  return Object.entries(schema.shape).map(([name, field]) => {
    const json = z.toJSONSchema(field as z.ZodType, { io: "input", unrepresentable: "any" }) as JsonSchema;
    const { description, $schema: _, ...rest } = json;
    return { name, in: "query", required: false, description, schema: rest };
  });
}

/** The reasons an endpoint can answer, grouped by status: one response per status, its reasons as an enum. */
function errorResponses(e: Endpoint) {
  const byStatus = new Map<number, Reason[]>();
  for (const reason of reasonsOf(e)) {
    const status = REASONS[reason].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), reason]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, reasons]) => [
      status,
      {
        description: reasons.map((r) => `\`${r}\`: ${REASONS[r].summary}`).join("; "),
        "x-reasons": reasons,
        content: {
          "application/json": {
            schema: { allOf: [ref(errorSchema), { properties: { code: { const: status }, reason: { enum: reasons } } }] },
          },
        },
      },
    ]),
  );
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: "A request header: printable ASCII, a UUID for example; the same key and body within 24 hours replays the first response",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

function operation(e: Endpoint) {
  const json = (schema: z.ZodType) => ({ "application/json": { schema: ref(schema) } });
  const pathParameters = Object.entries(e.pathParams ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema as { description?: string };
    return { name, in: "path", required: true, description, schema: rest };
  });
  return {
    operationId: e.operationId,
    summary: e.summary,
    "x-scope": e.scope,
    ...(e.rateLimits ? { "x-promo-guess-field": e.rateLimits.promoGuessField } : {}),
    parameters: [
      ...pathParameters,
      ...(e.query instanceof z.ZodObject ? queryParameters(e.query) : []),
      ...(e.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ],
    ...(e.body ? { requestBody: { required: true, content: json(e.body) } } : {}),
    responses: {
      [e.response.status]: { description: e.response.description, content: json(e.response.schema) },
      ...errorResponses(e),
    },
  };
}

/** Every reason with its status, meaning and the operations that can answer it: the documented catalogue. */
export function reasonCatalogue(): { reason: Reason; status: number; summary: string; operations: string[] }[] {
  const endpoints = Object.values(ENDPOINTS) as Endpoint[];
  return (Object.keys(REASONS) as Reason[]).map((reason) => ({
    reason,
    status: REASONS[reason].status,
    summary: REASONS[reason].summary,
    operations: endpoints.filter((e) => reasonsOf(e).includes(reason)).map((e) => `${e.method} ${e.path}`),
  }));
}

export function buildOpenApiDocument(serverUrl = "/api/v1") {
  const inputs = componentSchemas("input");
  const outputs = componentSchemas("output");
  const requestIds = new Set(["GiftVerifyRequest", "GearIntentRequest", "Attribution"]);
  const schemas = Object.fromEntries(Object.keys(outputs).map((id) => [id, requestIds.has(id) ? inputs[id] : outputs[id]]));
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const e of Object.values(ENDPOINTS) as Endpoint[]) (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e);

  return {
    openapi: "3.1.0",
    info: {
      title: "Gift catalog, gear intent and gift verification API",
      version: "1.0.0",
      description: API_GUIDE.map((s) => `## ${s.title}\n\n${s.body.join("\n\n")}`).join("\n\n"),
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    webhooks: CALLBACK_WEBHOOKS,
    "x-reasons": reasonCatalogue(),
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API token: gk_live_…" },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
export { API_GUIDE };
