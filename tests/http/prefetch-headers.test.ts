import http from "node:http";
import { describe, expect, inject, it } from "vitest";

// A page fetched as a prefetch (the browser's Purpose / Sec-Purpose, or the router's
// Next-Router-Prefetch) is shown as it was fetched: it gets every security header a page gets.

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

const PAGE_HEADERS = [
  "content-security-policy",
  "x-frame-options",
  "referrer-policy",
  "x-content-type-options",
  "permissions-policy",
  "x-request-id",
];

describe("a prefetched page", () => {
  const markers: [string, Record<string, string>][] = [
    ["Purpose: prefetch", { purpose: "prefetch" }],
    ["Sec-Purpose: prefetch", { "sec-purpose": "prefetch" }],
    ["Sec-Purpose: prefetch;prerender", { "sec-purpose": "prefetch;prerender" }],
    ["Next-Router-Prefetch: 1", { "next-router-prefetch": "1" }],
  ];
  const pages = ["/", "/games/620", "/gear", "/sign-in", "/docs/api"];

  it.each(markers.flatMap(([name, headers]) => pages.map((page) => [name, page, headers] as const)))(
    "%s of %s carries every security header of a page",
    async (_name, page, headers) => {
      const res = await raw(page, headers);
      expect(res.status).toBe(200);
      for (const name of PAGE_HEADERS) expect(res.headers[name], name).toBeTruthy();
      expect(res.headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    },
  );

  it.each(pages)("the router's own prefetch of %s (its RSC payload) carries them too", async (page) => {
    const headers = { rsc: "1", "next-router-prefetch": "1" };
    // Next first sends the request to the URL with its cache key (`_rsc`); both answers are checked.
    const first = await raw(page, headers);
    const keyed = first.status === 307 ? new URL(first.headers.location!, "http://store.invalid") : null;
    const res = keyed ? await raw(`${keyed.pathname}${keyed.search}`, headers) : first;
    for (const answer of [first, res]) for (const name of PAGE_HEADERS) expect(answer.headers[name], name).toBeTruthy();
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/x-component/);
  });
});
