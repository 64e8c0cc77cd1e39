import fs from "node:fs";
import http from "node:http";
import { describe, expect, inject, it } from "vitest";
import { messages } from "@/lib/i18n/messages";
import { until } from "@/tests/support/paid-intent";
import { expectErrorBody } from "./support";

// A path whose percent-encoding does not decode gets the store's 400 (lib/http/path-guard.ts): JSON
// under /api, the store's own page elsewhere, each with a request id and a log line.

/** node:http rather than fetch, which refuses to send some of these paths as they are. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request(`${inject("appBaseUrl")}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a path whose percent-encoding does not decode", () => {
  const logFile = () => inject("appLogFile");
  /** The server's log lines of `requestId`, once there is one (the logger writes asynchronously). */
  const logLineOf = (requestId: string) =>
    until(
      async () => {
        const lines = fs
          .readFileSync(logFile(), "utf8")
          .split("\n")
          .filter((line) => line.includes(requestId))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        return lines.length > 0 && lines;
      },
      10_000,
      `a log line of ${requestId}`,
    );

  const apiPaths = [
    "/api/v1/intents/%E0",
    "/api/v1/intents/%E0/refund",
    "/api/v1/gifts/games/%FF",
    "/api/v1/gifts/catalog/%C0%AF",
    "/api/v1/%ED%A0%80",
    "/api/%",
    "/api/storefront/token%E0",
    "/api/auth/session/%FF",
  ];

  it.each(apiPaths)("GET %s is 400 invalid_path in JSON, with a request id and a log line", async (path) => {
    const res = await raw(path, { authorization: `Bearer ${inject("appTokens").full}` });
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const body = JSON.parse(res.text);
    expectErrorBody(400, body);
    expect(body).toEqual({ code: 400, message: expect.stringContaining("percent-encoding"), reason: "invalid_path" });
    const requestId = res.headers["x-request-id"] as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await logLineOf(requestId)).toEqual([
      expect.objectContaining({ requestId, status: 400, reason: "invalid_path", method: "GET" }),
    ]);
  });

  it("POST to such an API path is the same 400", async () => {
    const res = await raw("/api/v1/intents/%E0/refund", { authorization: `Bearer ${inject("appTokens").full}` }, "POST");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ reason: "invalid_path" });
  });

  const pagePaths = [
    "/games/%FF",
    "/games/620%E0",
    "/pay/%E0",
    "/pay/%E0/decline",
    "/orders/%E0",
    "/orders/%E0/status",
    "/covers/%FF.png",
    "/covers/%FF.svg",
    "/admin/orders/%E0",
    "/admin/promo-codes/%E0",
    "/admin/catalog/%E0",
    "/%FF",
    "/gear/%",
    "/_next/static/%E0",
  ];

  it.each(pagePaths.flatMap((path) => (["ru", "en"] as const).map((locale) => [path, locale] as const)))(
    "GET %s is the store's own 400 page (%s), with a request id and a log line",
    async (path, locale) => {
      const res = await raw(path, { "accept-language": locale === "ru" ? "ru-RU,ru;q=0.9" : "en-US,en;q=0.9" });
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.text).toContain(`<html lang="${locale}"`);
      expect(res.text).toContain(messages[locale].common.badRequest.title);
      // The store's page, with its header and the page's security headers.
      expect(res.text).toContain(messages[locale].common.skipToContent);
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      const requestId = res.headers["x-request-id"] as string;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await logLineOf(requestId)).toContainEqual(expect.objectContaining({ requestId, status: 400, reason: "invalid_path" }));
    },
  );

  it("is not a page of its own: the path the 400 page renders at answers 404 when asked for directly", async () => {
    const res = await raw("/bad-request");
    expect(res.status).toBe(404);
  });

  it("leaves well-formed paths alone, escapes included", async () => {
    expect((await raw("/games/620")).status).toBe(200);
    expect((await raw("/games/%36%32%30")).status).toBe(200);
    expect((await raw("/games/620?x=%E0")).status).toBe(200);
    expect((await raw("/games/%2F")).status).toBe(404);
  });
});
