import { describe, expect, it } from "vitest";
import journal from "@/drizzle/meta/_journal.json";
import { api } from "./support";

describe("health and readiness", () => {
  it("GET /api/health answers without a token or a database query", async () => {
    const res = await api("/api/health", { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("GET /api/ready reports the migrated database", async () => {
    const res = await api("/api/ready", { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ready", migrations: journal.entries.length });
  });
});
