import { describe, expect, it, vi } from "vitest";

// The back office's route handlers run inside withRequestContext, as every route outside /api/v1
// does: an error nobody expected becomes the generic JSON 500 with the request id (logged with its
// stack under that id) instead of Next's bare error page, and every answer carries X-Request-Id.

vi.mock("@/lib/admin/session", () => ({
  authorizeStaff: async () => {
    throw new Error("the database went away");
  },
}));

const routes = [
  { name: "GET /admin/orders/export", load: async () => (await import("@/app/admin/orders/export/route")).GET, method: "GET" },
  { name: "GET /admin/campaigns/export", load: async () => (await import("@/app/admin/campaigns/export/route")).GET, method: "GET" },
  { name: "POST /admin/catalog/import", load: async () => (await import("@/app/admin/catalog/import/route")).POST, method: "POST" },
] as const;

describe("back-office route handlers", () => {
  it.each(routes)("$name answers an unexpected error with the generic 500 and the request id", async ({ name, load, method }) => {
    const handler = (await load()) as (request: Request, context: unknown) => Promise<Response>;
    const path = name.split(" ")[1]!;
    const request = new Request(`http://store.test${path}`, { method, headers: { "x-request-id": "admin-route-trace.1" } });
    const response = await handler(request, {});
    expect(response.status).toBe(500);
    expect(response.headers.get("x-request-id")).toBe("admin-route-trace.1");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 500, reason: "internal_error", message: expect.stringContaining("admin-route-trace.1") });
    expect(JSON.stringify(body)).not.toContain("the database went away");
  });
});
