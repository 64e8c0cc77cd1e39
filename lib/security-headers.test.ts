import { describe, expect, it } from "vitest";
import { createNonce, pageSecurityHeaders } from "./security-headers";

const csp = (over: Partial<Parameters<typeof pageSecurityHeaders>[0]> = {}) =>
  pageSecurityHeaders({ nonce: "abc", pathname: "/", https: false, dev: false, imageHosts: [], ...over })["Content-Security-Policy"]!;

describe("page security headers", () => {
  it("allow only this response's scripts, no eval, no framing, no plugins", () => {
    expect(csp()).toBe(
      "default-src 'self'; script-src 'self' 'nonce-abc' 'strict-dynamic'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it("let images come from the configured image hosts over https, so imported store covers show", () => {
    expect(csp({ imageHosts: ["shared.akamai.steamstatic.com", "*.cdn.example"] })).toContain(
      "img-src 'self' data: blob: https://shared.akamai.steamstatic.com https://*.cdn.example;",
    );
  });

  it("by default allow the store CDN host the sample appdetails file uses", async () => {
    const { env } = await import("./env");
    const fixture = (await import("node:fs")).readFileSync(new URL("../tests/fixtures/appdetails-sample.json", import.meta.url), "utf8");
    const hosts = new Set([...fixture.matchAll(/"header_image": "([^"]+)"/g)].map((m) => new URL(m[1]!).hostname));
    expect(hosts.size).toBeGreaterThan(0);
    for (const host of hosts) expect(env.IMAGE_HOSTS).toContain(host);
  });

  it("let the payment form redirect to a partner's https URL (or localhost), and only there", () => {
    expect(csp({ pathname: "/pay/123" })).toContain("form-action 'self' https: http://localhost:* http://127.0.0.1:*;");
    expect(csp({ pathname: "/payments" })).toContain("form-action 'self';");
  });

  it("add HSTS and upgrade-insecure-requests over https only", () => {
    expect(pageSecurityHeaders({ nonce: "n", pathname: "/", https: true, dev: false, imageHosts: [] })["Strict-Transport-Security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(csp({ https: true })).toMatch(/; upgrade-insecure-requests$/);
    expect(
      pageSecurityHeaders({ nonce: "n", pathname: "/", https: false, dev: false, imageHosts: [] })["Strict-Transport-Security"],
    ).toBeUndefined();
  });

  it("allow eval in development only (React's error overlay)", () => {
    expect(csp({ dev: true })).toContain("'strict-dynamic' 'unsafe-eval';");
  });

  it("make a fresh 128-bit nonce each time", () => {
    const a = createNonce();
    expect(Buffer.from(a, "base64")).toHaveLength(16);
    expect(createNonce()).not.toBe(a);
  });
});
