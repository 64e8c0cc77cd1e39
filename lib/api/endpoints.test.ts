import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import { ENDPOINTS, type Endpoint } from "./endpoints";

// The routes mounted under app/api/v1 and the OpenAPI document must describe the same API: every
// mounted handler serves the descriptor of its own path and method, and the document lists exactly
// the mounted operations with their scopes.

const root = path.resolve(import.meta.dirname, "../..");
const apiDir = path.join(root, "app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Route files under app/api/v1 with the path they serve: `gifts/games/[appId]` is `/gifts/games/{appId}`. */
function mountedRouteFiles(): { file: string; path: string }[] {
  const found: { file: string; path: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const segments = path.relative(apiDir, dir).split(path.sep).filter(Boolean);
        found.push({ file: full, path: `/${segments.map((s) => s.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}` });
      }
    }
  };
  walk(apiDir);
  return found;
}

/** Routes that serve no descriptor on purpose: the catch-all 404 and the public document itself. */
const UNDESCRIBED = new Set(["/[[...path]]", "/openapi.json"]);

async function mountedOperations() {
  const operations: { method: string; path: string; endpoint: Endpoint }[] = [];
  for (const route of mountedRouteFiles()) {
    if (UNDESCRIBED.has(route.path)) continue;
    const mod = (await import(route.file)) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = mod[method] as { endpoint?: Endpoint } | undefined;
      if (handler?.endpoint) operations.push({ method, path: route.path, endpoint: handler.endpoint });
    }
  }
  return operations;
}

describe("the mounted /api/v1 routes and the OpenAPI document", () => {
  // Importing every route file cold (each with its services) is the slow part, not the check:
  // 5 to 7 s on a machine shared with other runs, the code of the branch before this one alike.
  it("mount every described endpoint, each at its own path and method", { timeout: 30_000 }, async () => {
    const mounted = await mountedOperations();
    for (const { method, path: routePath, endpoint } of mounted) {
      expect(`${endpoint.method} ${endpoint.path}`, `the handler for ${method} ${routePath}`).toBe(`${method} ${routePath}`);
    }
    const described = (Object.values(ENDPOINTS) as Endpoint[]).map((e) => `${e.method} ${e.path}`).sort();
    expect(mounted.map((o) => `${o.method} ${o.path}`).sort()).toEqual(described);
  });

  it("document exactly the mounted operations, with the scope each route enforces", async () => {
    const doc = buildOpenApiDocument();
    const documented = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, scope: op["x-scope"] })),
    );
    const mounted = (await mountedOperations()).map((o) => ({ key: `${o.method} ${o.path}`, scope: o.endpoint.scope }));
    expect(documented.sort((a, b) => a.key.localeCompare(b.key))).toEqual(mounted.sort((a, b) => a.key.localeCompare(b.key)));
  });

  it("finds every route file, so a new route cannot hide from the checks above", () => {
    const paths = mountedRouteFiles().map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining(["/gifts/catalog", "/gifts/verify", "/gear", "/gear/items", "/gifts/games/{appId}", "/intents/{intentId}"]),
    );
    for (const p of paths) expect(UNDESCRIBED.has(p) || /^\/[\w/{}.-]+$/.test(p), p).toBe(true);
  });

  it("give every error response its reasons, each with that response's status", () => {
    const doc = buildOpenApiDocument();
    const statusOf = Object.fromEntries(doc["x-reasons"].map((r) => [r.reason, r.status]));
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (status.startsWith("2")) continue;
          const reasons = (response as { "x-reasons"?: string[] })["x-reasons"] ?? [];
          expect(reasons.length, `${op.operationId} ${status}`).toBeGreaterThan(0);
          for (const reason of reasons) expect(statusOf[reason], `${op.operationId}: ${reason}`).toBe(Number(status));
        }
      }
    }
  });

  it("describe every event the store sends as a webhook", () => {
    expect(Object.keys(buildOpenApiDocument().webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });
});
