import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNextProcess, stopChild, type NextProcess } from "@/scripts/lib/processes";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerToken } from "@/tests/support/partners";

// A server of its own as a machine without a proxy in front runs it: clients connect directly
// (TRUST_PROXY=0), no PUBLIC_BASE_URL, no hosts opened to callbacks, and one share card drawn at a time.
let t: TestDatabase;
let server: NextProcess;
let token = "";
let appIds: number[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  token = (await partnerToken(t.db, "hardening@example.com", { name: "hardening" })).token;
  const { rows } = await t.pool.query<{ app_id: number }>("SELECT app_id FROM games ORDER BY app_id LIMIT 40");
  appIds = rows.map((r) => r.app_id);
  server = await startNextProcess("hardening", {
    DATABASE_URL: t.url,
    WORKER_ENABLED: "0",
    TRUST_PROXY: "0",
    PUBLIC_BASE_URL: "",
    NEXTAUTH_URL: "",
    WEBHOOK_ALLOW_HOSTS: "",
    COVER_RENDER_CONCURRENCY: "1",
    RATE_LIMIT_PER_TOKEN: "1000000",
    RATE_LIMIT_PER_IP: "1000000",
  });
}, 120_000);

afterAll(async () => {
  if (server) await stopChild(server.child);
  await t?.close();
});

/** node:http rather than fetch, which will not send a Host of the caller's choosing. */
function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const headers: Record<string, string> = { ...init.headers };
  if (body !== undefined) headers["content-type"] = "application/json";
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; bytes: Buffer }>((resolve, reject) => {
    const req = http.request(`${server.baseUrl}${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: bytes.toString("utf8"), bytes });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const gift = (extra: Record<string, unknown> = {}) => ({
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "gamer@example.com",
  fee: "excluded",
  ...extra,
});
const gear = (extra: Record<string, unknown> = {}) => ({
  account: "76561198000000001",
  platform: "730",
  item: "sticker-capsule",
  email: "gamer@example.com",
  additionalFields: { tradeLink: "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12" },
  ...extra,
});
const auth = () => ({ authorization: `Bearer ${token}` });

describe("a forged Host or X-Forwarded-Host, with no trusted proxy and no PUBLIC_BASE_URL", () => {
  const port = () => new URL(server.baseUrl).port;

  it.each([
    ["Host", { host: "evil.example" }, () => `http://localhost:${port()}`],
    ["X-Forwarded-Host", { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }, () => server.baseUrl],
  ])("does not reach paymentUrl (%s)", async (_name, forged, expected) => {
    const res = await raw("/api/v1/gifts/verify", { headers: { ...auth(), ...forged }, body: gift() });
    expect(res.status).toBe(201);
    const { paymentUrl } = JSON.parse(res.text);
    expect(paymentUrl).toMatch(new RegExp(`^${expected()}/pay/[0-9a-f-]{36}$`));
  });

  it.each([
    ["Host", { host: "evil.example" }, () => `http://localhost:${port()}`],
    ["X-Forwarded-Host", { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }, () => server.baseUrl],
  ])("does not reach the game page's canonical and og:url (%s)", async (_name, forged, expected) => {
    const res = await raw("/games/620", { headers: forged });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain("evil.example");
    expect(res.text).toContain(`<link rel="canonical" href="${expected()}/games/620"/>`);
    expect(res.text).toContain(`<meta property="og:url" content="${expected()}/games/620"/>`);
  });
});

describe("callbackUrl the worker could never reach", () => {
  const bad = [
    "http://127.0.0.1:8080/hook",
    "https://127.0.0.1/hook",
    "https://localhost/hook",
    "https://localhost./hook",
    "https://api.localhost/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://0.0.0.0/hook",
    "https://10.0.0.7/hook",
    "https://192.168.1.1/hook",
    "https://169.254.169.254/latest/meta-data/",
    "https://metadata.google.internal/computeMetadata/v1/",
    "https://[fd00:ec2::254]/",
    "https://2130706433/hook",
  ];

  it.each(
    bad.flatMap((url) => [
      ["/api/v1/gifts/verify", url, gift({ callbackUrl: url })] as const,
      ["/api/v1/gear", url, gear({ callbackUrl: url })] as const,
    ]),
  )("%s refuses %s with a 400 naming callbackUrl", async (path, _url, body) => {
    const res = await raw(path, { headers: auth(), body });
    expect(res.status).toBe(400);
    const error = JSON.parse(res.text);
    expect(error.code).toBe(400);
    expect(error.message).toMatch(/^callbackUrl must be (an absolute https:\/\/ URL|a public address the store can reach: .+)$/);
  });

  it("still takes a public https callbackUrl", async () => {
    const res = await raw("/api/v1/gifts/verify", { headers: auth(), body: gift({ callbackUrl: "https://partner.example.com/hook" }) });
    expect(res.status).toBe(201);
  });
});

describe("GET /covers/{appId}.png", () => {
  const isPng = (bytes: Buffer) => bytes.subarray(1, 4).toString("latin1") === "PNG";

  it("draws a card once: the second request, and any query string, is served from the cache", async () => {
    const first = await raw(`/covers/${appIds[0]}.png`);
    expect(first.status).toBe(200);
    expect(first.headers["x-cache"]).toBe("MISS");
    for (const suffix of ["", "?v=2", "?utm_source=x&cb=123"]) {
      const again = await raw(`/covers/${appIds[0]}.png${suffix}`);
      expect([suffix, again.status, again.headers["x-cache"]]).toEqual([suffix, 200, "HIT"]);
      expect(again.bytes.equals(first.bytes)).toBe(true);
    }
  });

  it("draws one card for concurrent requests for one game", async () => {
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => raw(`/covers/${appIds[1]}.png?n=${i}`)));
    expect(all.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(all.every((r) => isPng(r.bytes) && r.bytes.equals(all[0]!.bytes))).toBe(true);
  });

  it("answers misses beyond its drawing capacity with 429 and Retry-After rather than queueing them", async () => {
    const ids = appIds.slice(10, 22);
    const all = await Promise.all(ids.map((id) => raw(`/covers/${id}.png`)));
    const statuses = all.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    const refused = all.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(r.text)).toMatchObject({ code: 429, message: expect.stringContaining("share card"), reason: "rate_limited" });
    }
    for (const r of all.filter((r) => r.status === 200)) expect(isPng(r.bytes)).toBe(true);
  });
});
