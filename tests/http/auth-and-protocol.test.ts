import { describe, expect, inject, it } from "vitest";
import { api } from "./support";

const tokens = inject("appTokens");

const endpoints = [
  { method: "GET", path: "/api/v1/gifts/catalog", scope: "catalog:read", other: tokens.giftsOnly },
  { method: "GET", path: "/api/v1/gifts/games/620", scope: "catalog:read", other: tokens.gearOnly },
  { method: "GET", path: "/api/v1/gear/items", scope: "catalog:read", other: tokens.giftsOnly },
  { method: "POST", path: "/api/v1/gifts/verify", scope: "gifts:verify", other: tokens.catalogOnly },
  { method: "POST", path: "/api/v1/gear", scope: "gear:create", other: tokens.giftsOnly },
  { method: "GET", path: "/api/v1/intents/00000000-0000-4000-8000-000000000000", scope: "intents:read", other: tokens.catalogOnly },
] as const;

describe("authentication", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["no Authorization header", {}, "missing bearer token: send Authorization: Bearer <token>"],
    ["a Basic credential", { authorization: "Basic dXNlcjpwYXNz" }, "the Authorization header must be: Bearer <token>"],
    ["an empty bearer", { authorization: "Bearer " }, "the Authorization header must be: Bearer <token>"],
    ["a malformed token", { authorization: "Bearer not-a-token" }, "the bearer token is not a valid token"],
    ["an unknown token", { authorization: `Bearer gk_live_${"A".repeat(43)}` }, "the bearer token is not a valid token"],
    ["an expired token", { authorization: `Bearer ${tokens.expired}` }, "the bearer token has expired"],
    ["a revoked token", { authorization: `Bearer ${tokens.revoked}` }, "the bearer token has been revoked"],
  ];

  for (const endpoint of endpoints) {
    it.each(cases)(`${endpoint.method} ${endpoint.path} with %s is 401`, async (_, headers, message) => {
      const res = await api(endpoint.path, { token: null, method: endpoint.method, headers });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 401, message });
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="api"/);
    });

    it(`${endpoint.method} ${endpoint.path} without the ${endpoint.scope} scope is 403`, async () => {
      const res = await api(endpoint.path, {
        token: endpoint.other,
        method: endpoint.method,
        body: endpoint.method === "POST" ? {} : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 403, message: `this token lacks the "${endpoint.scope}" scope` });
    });
  }
});

describe("protocol errors", () => {
  it("answers an unknown route with 404 in the error shape", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const res = await api("/api/v1/gifts/nope", { method });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 404, message: `no such endpoint: ${method} /api/v1/gifts/nope` });
    }
  });

  it("answers the bare API root with 404 in the error shape", async () => {
    const res = await api("/api/v1");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, message: "no such endpoint: GET /api/v1" });
  });

  it.each([
    ["/api/v1/gifts/catalog", "GET, HEAD, OPTIONS"],
    ["/api/v1/gifts/verify", "POST, OPTIONS"],
    ["/api/v1/gear", "POST, OPTIONS"],
  ])("OPTIONS %s names the implemented methods: %s", async (path, allow) => {
    const res = await api(path, { method: "OPTIONS", token: null });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe(allow);
  });

  it.each([
    ["DELETE", "/api/v1/gifts/catalog", "GET, HEAD, OPTIONS"],
    ["POST", "/api/v1/gifts/catalog", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/v1/gear/items", "GET, HEAD, OPTIONS"],
    ["GET", "/api/v1/gifts/verify", "POST, OPTIONS"],
    ["PATCH", "/api/v1/gear", "POST, OPTIONS"],
    ["DELETE", "/api/v1/gifts/games/620", "GET, HEAD, OPTIONS"],
    ["POST", "/api/v1/intents/00000000-0000-4000-8000-000000000000", "GET, HEAD, OPTIONS"],
  ])("%s %s is 405 with Allow: %s", async (method, path, allow) => {
    const res = await api(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body).toMatchObject({ code: 405, message: `${method} is not allowed here; allowed: ${allow}` });
  });

  const bodyCases: [string, { rawBody?: string; headers?: Record<string, string> }, number, string][] = [
    ["no content type", { rawBody: "{}" }, 415, "the request body must be JSON: send Content-Type: application/json"],
    [
      "text/plain",
      { rawBody: "{}", headers: { "content-type": "text/plain" } },
      415,
      "the request body must be JSON: send Content-Type: application/json",
    ],
    [
      "an empty body",
      { rawBody: "", headers: { "content-type": "application/json" } },
      400,
      "the request body is empty: send a JSON object",
    ],
    ["malformed JSON", { rawBody: '{"item":', headers: { "content-type": "application/json" } }, 400, "the request body is not valid JSON"],
    ["a JSON array", { rawBody: "[]", headers: { "content-type": "application/json" } }, 400, "the request body must be a JSON object"],
    ["a JSON string", { rawBody: '"hi"', headers: { "content-type": "application/json" } }, 400, "the request body must be a JSON object"],
    [
      "a body over 64 KiB",
      { rawBody: JSON.stringify({ item: "x".repeat(70_000) }), headers: { "content-type": "application/json" } },
      413,
      "the request body must be at most 64 KiB",
    ],
  ];

  for (const path of ["/api/v1/gifts/verify", "/api/v1/gear"]) {
    it.each(bodyCases)(`POST ${path} with %s`, async (_, request, status, message) => {
      const res = await api(path, { method: "POST", ...request });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ code: status, message });
    });
  }

  it("accepts a charset on the JSON content type", async () => {
    const res = await api("/api/v1/gear", {
      method: "POST",
      rawBody: "{}",
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("account is required");
  });

  it("gives every response a request id", async () => {
    const ok = await api("/api/v1/gifts/catalog?limit=1");
    const bad = await api("/api/v1/gifts/catalog?limit=0");
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a caller's sane request id, and replaces one that carries a token (ids are logged as they are)", async () => {
    const kept = await api("/api/v1/gifts/catalog?limit=1", { headers: { "x-request-id": "trace-7.a_b" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-7.a_b");
    const tokenLike = `gk_live_${"A".repeat(43)}`;
    for (const id of [tokenLike, `trace.${tokenLike}`]) {
      const replaced = await api("/api/v1/gifts/catalog?limit=1", { headers: { "x-request-id": id } });
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("serves the OpenAPI document without a token", async () => {
    const res = await api("/api/v1/openapi.json", { token: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(["/gifts/catalog", "/gifts/verify", "/gear", "/gifts/games/{appId}", "/gear/items", "/intents/{intentId}"]),
    );
    expect(res.body.components.schemas.GiftVerifyRequest.required).toEqual(["item", "target", "email", "fee"]);
  });
});
