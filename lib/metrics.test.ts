import { describe, expect, it } from "vitest";
import { routePattern } from "./metrics";

describe("routePattern", () => {
  it.each([
    ["/api/v1/intents/9b2c5f0e-4a7d-4e8b-9a51-0f6c2d1e3b4a", "/api/v1/intents/:intentId"],
    ["/orders/9b2c5f0e-4a7d-4e8b-9a51-0f6c2d1e3b4a/status", "/orders/:intentId/status"],
    ["/pay/9b2c5f0e-4a7d-4e8b-9a51-0f6c2d1e3b4a/submit", "/pay/:intentId/submit"],
    ["/api/v1/games/620", "/api/v1/games/:appId"],
    // The back office's route handlers have no ids: `export` is not an order.
    ["/admin/orders/export", "/admin/orders/export"],
    ["/admin/campaigns/export", "/admin/campaigns/export"],
    ["/admin/catalog/import", "/admin/catalog/import"],
  ])("%s is %s", (path, pattern) => {
    expect(routePattern(path)).toBe(pattern);
  });
});
