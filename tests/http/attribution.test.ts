import { describe, expect, inject, it } from "vitest";

// proxy.ts: a page visit with a campaign (utm_source or utm_medium) sets the attribution cookie
// that the checkout forms send; nothing else does, and the page answers as without it.

async function visit(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${inject("appBaseUrl")}${path}`, { headers, redirect: "manual" });
  await res.arrayBuffer();
  return { status: res.status, cookies: res.headers.getSetCookie().filter((c) => c.startsWith("gk_attribution=")) };
}

function cookieValue(setCookie: string): unknown {
  return JSON.parse(decodeURIComponent(setCookie.slice("gk_attribution=".length).split(";")[0]!));
}

describe("the attribution cookie", () => {
  it("is set by a campaign visit to any page, first-party, readable by the forms, for 30 days", async () => {
    const before = Date.now();
    const res = await visit("/gear?platform=570&utm_source=newsletter&utm_medium=email&utm_campaign=spring");
    expect(res.status).toBe(200);
    expect(res.cookies).toHaveLength(1);
    const [cookie] = res.cookies;
    expect(cookie).toMatch(/; Path=\/; Expires=[^;]+; Max-Age=2592000; SameSite=lax$/);
    expect(cookie).not.toMatch(/HttpOnly/i);
    const value = cookieValue(cookie!) as Record<string, string>;
    expect(value).toEqual({ utm_source: "newsletter", utm_medium: "email", utm_campaign: "spring", at: expect.any(String) });
    expect(Date.parse(value.at!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it.each([
    ["utm_source alone", "/?utm_source=vk", { utm_source: "vk" }],
    ["utm_medium alone", "/docs/api?utm_medium=cpc", { utm_medium: "cpc" }],
    ["a bad campaign value left out", `/?utm_source=vk&utm_term=${"x".repeat(300)}`, { utm_source: "vk" }],
  ])("records %s", async (_, path, expected) => {
    const [cookie] = (await visit(path)).cookies;
    expect(cookieValue(cookie!)).toEqual({ ...expected, at: expect.any(String) });
  });

  it.each([
    ["a visit without a campaign", "/gear", {}],
    ["a campaign name alone", "/?utm_campaign=spring", {}],
    ["an empty source", "/?utm_source=", {}],
    ["an API request", "/api/v1/openapi.json?utm_source=vk", {}],
    ["a router prefetch", "/gear?utm_source=vk", { "next-router-prefetch": "1" }],
    ["a browser prefetch", "/gear?utm_source=vk", { purpose: "prefetch" }],
  ])("is not set by %s", async (_, path, headers) => {
    const res = await visit(path, headers);
    expect(res.status).toBe(200);
    expect(res.cookies).toEqual([]);
  });
});
