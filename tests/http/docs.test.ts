import { describe, expect, it } from "vitest";
import { api } from "./support";

describe("the API reference page", () => {
  // Next bundles the schemas once per route: after the API routes have run, the process holds two
  // copies of every named schema, which the reference page must not mix up (it did: a 500).
  it("renders after the API routes have loaded their own copies of the schemas", async () => {
    await api("/api/v1/gear", {
      body: { account: "76561198000000001", platform: "730", item: "sticker-capsule", email: "docs@example.com" },
    });
    await api("/api/v1/gifts/catalog?limit=1");
    const page = await api("/docs/api", { token: null });
    expect(page.status).toBe(200);
    expect(page.body).toContain("Attribution");
  });
});
