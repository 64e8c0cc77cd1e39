import fs from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { startNextProcess, stopChild, type NextProcess } from "@/scripts/lib/processes";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerToken } from "@/tests/support/partners";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
import { expectErrorBody } from "./support";

// A server of its own with small limits (the shared one keeps them out of the other tests' way).
const METRICS_TOKEN = "metrics-token-for-the-rate-limit-tests";
let t: TestDatabase;
let server: NextProcess;
const tokens: Record<"a" | "b" | "logs" | "promo" | "promoOther", string> = { a: "", b: "", logs: "", promo: "", promoOther: "" };

// Windows are fixed and aligned to the clock (60 s here): a test that counts up to a limit must not
// straddle a window's end, or its last request lands in a fresh window and is allowed.
beforeEach(async () => {
  const intoWindow = (Date.now() / 1000) % 60;
  if (intoWindow > 45) await new Promise((r) => setTimeout(r, (61 - intoWindow) * 1000));
}, 20_000);

beforeAll(async () => {
  t = await createTestDatabase();
  const make = async (email: string) => (await partnerToken(t.db, email)).token;
  tokens.a = await make("limits-a@example.com");
  tokens.b = await make("limits-b@example.com");
  tokens.logs = await make("limits-logs@example.com");
  // Shoppers' self-service tokens: a partner's wrong codes count per owner only, a shopper's per address too.
  const shopper = async (email: string) =>
    (await createApiToken(t.db, { userId: await ensureUser(t.db, email), name: email, scopes: ["gifts:verify"] })).token;
  tokens.promo = await shopper("limits-promo@example.com");
  tokens.promoOther = await shopper("limits-promo-other@example.com");
  server = await startNextProcess("rate-limits", {
    DATABASE_URL: t.url,
    WORKER_ENABLED: "0",
    TRUST_PROXY: "1",
    RATE_LIMIT_PER_TOKEN: "5",
    RATE_LIMIT_PER_IP: "3",
    RATE_LIMIT_PROMO: "2",
    METRICS_TOKEN,
  });
}, 120_000);

afterAll(async () => {
  if (server) await stopChild(server.child);
  await t?.close();
});

async function call(
  path: string,
  init: { token?: string; ip?: string; body?: unknown; headers?: Record<string, string>; method?: string } = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": init.ip ?? "192.0.2.1", ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: "manual",
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  if (res.status >= 400 && typeof body === "object") expectErrorBody(res.status, body);
  return { status: res.status, headers: res.headers, body };
}

const CATALOG = "/api/v1/gifts/catalog?limit=1";
const gift = (code?: string) => ({
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "gamer@example.com",
  fee: "excluded",
  ...(code ? { code } : {}),
});

describe("per-token limit", () => {
  it("counts every request of one token, says what is left, then answers 429 with Retry-After", async () => {
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(CATALOG, { token: tokens.a, ip: `192.0.2.${10 + i}` });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"token";q=5;w=60');
      seen.push(res.headers.get("ratelimit")!.replace(/;t=\d+$/, ""));
    }
    expect(seen).toEqual(['"token";r=4', '"token";r=3', '"token";r=2', '"token";r=1', '"token";r=0']);

    const refused = await call(CATALOG, { token: tokens.a, headers: { "x-request-id": "trace-429.a_b" } });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.body).toMatchObject({
      code: 429,
      message: `too many requests: at most 5 requests with this token per 60 s; try again in ${wait} s`,
    });
    expect(refused.headers.get("ratelimit")).toMatch(/^"token";r=0;t=\d+$/);
    expect(refused.headers.get("x-request-id")).toBe("trace-429.a_b");
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");

    // Another token of the same server is not affected.
    expect((await call(CATALOG, { token: tokens.b })).status).toBe(200);
  });
});

describe("per-address limit without a valid token", () => {
  it("counts missing and invalid tokens per client address, then 429 instead of 401", async () => {
    const ip = "198.51.100.50";
    const statuses = [];
    for (const token of [undefined, "gk_live_" + "x".repeat(43), "not-a-token"]) {
      const res = await call(CATALOG, { token, ip });
      statuses.push([res.status, res.headers.get("ratelimit")?.replace(/;t=\d+$/, "")]);
    }
    expect(statuses).toEqual([
      [401, '"ip";r=2'],
      [401, '"ip";r=1'],
      [401, '"ip";r=0'],
    ]);
    const refused = await call(CATALOG, { ip });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^too many requests: at most 3 requests without a valid token from this address per 60 s; try again in \d+ s$/,
    );
    // Another address still gets its 401; a valid token from this address is counted per token.
    expect((await call(CATALOG, { ip: "198.51.100.51" })).status).toBe(401);
    expect((await call(CATALOG, { ip, token: tokens.b })).status).toBe(200);
  });

  it("believes only the address the trusted proxy appended, not one the client wrote", async () => {
    // TRUST_PROXY=1: the entry before the socket's peer. A client prepending others changes nothing.
    for (let i = 0; i < 3; i++) expect((await call(CATALOG, { ip: `10.9.9.${i}, 198.51.100.60` })).status).toBe(401);
    expect((await call(CATALOG, { ip: "10.9.9.99, 198.51.100.60" })).status).toBe(429);
  });

  it("limits storefront token issuance per address", async () => {
    const ip = "198.51.100.70";
    const post = () => call("/api/storefront/token", { ip, method: "POST", headers: { "sec-fetch-site": "same-origin" } });
    for (let i = 0; i < 3; i++) expect((await post()).status).toBe(200);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^too many requests: at most 3 storefront tokens from this address per 60 s; try again in \d+ s$/);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("wrong promo codes", () => {
  it("allows a few wrong codes per owner, then refuses every request with a code (right ones too) until the window ends", async () => {
    for (const code of ["NOPE1", "EXPIRED2025"]) {
      const res = await call("/api/v1/gifts/verify", { token: tokens.promo, body: gift(code) });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^promo code /);
    }
    const refused = await call("/api/v1/gifts/verify", { token: tokens.promo, body: gift("WELCOME10") });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^too many requests: at most 2 wrong promo codes for this token's owner per 900 s; try again in \d+ s$/,
    );
    expect(refused.headers.get("ratelimit-policy")).toBe('"token";q=5;w=60, "promo";q=2;w=900');
    expect(refused.headers.get("ratelimit")).toMatch(/^"token";r=2;t=\d+, "promo";r=0;t=\d+$/);
    // Without a code the owner buys as before. Another owner shares this address's guesses, and has its own elsewhere.
    expect((await call("/api/v1/gifts/verify", { token: tokens.promo, body: gift() })).status).toBe(201);
    const sameAddress = await call("/api/v1/gifts/verify", { token: tokens.promoOther, body: gift("WELCOME10") });
    expect(sameAddress.status).toBe(429);
    expect(sameAddress.body.message).toMatch(
      /^too many requests: at most 2 wrong promo codes from this address per 900 s; try again in \d+ s$/,
    );
    expect((await call("/api/v1/gifts/verify", { token: tokens.promoOther, ip: "192.0.2.2", body: gift("WELCOME10") })).status).toBe(201);
  });
});

describe("request ids and logs", () => {
  it.each([
    ["a sane id is kept", "abc-123_X.y", "abc-123_X.y"],
    ["an id with spaces is replaced", "not sane", null],
    ["an id over 128 characters is replaced", "a".repeat(129), null],
  ])("%s", async (_, given, expected) => {
    const res = await call(CATALOG, { token: tokens.b, headers: { "x-request-id": given } });
    const id = res.headers.get("x-request-id");
    if (expected) expect(id).toBe(expected);
    else expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("carries the id on the payment form's errors and pages too", async () => {
    const submit = await call("/pay/00000000-0000-4000-8000-000000000000/submit", {
      method: "POST",
      headers: { "x-request-id": "pay-form-1" },
    });
    expect(submit.status).toBe(400);
    expect(submit.headers.get("x-request-id")).toBe("pay-form-1");
    const page = await call("/sign-in", { headers: { "x-request-id": "page-1" } });
    expect(page.headers.get("x-request-id")).toBe("page-1");
  });

  it("writes one JSON line per request with its id, route, status and token id, never the token", async () => {
    await call(CATALOG, { token: tokens.logs, headers: { "x-request-id": "log-line-check" } });
    await new Promise((r) => setTimeout(r, 300));
    const lines = fs
      .readFileSync(server.logFile, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.requestId === "log-line-check");
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      method: "GET",
      route: "/api/v1/gifts/catalog",
      status: 200,
      ip: "192.0.2.1",
    });
    expect(typeof line?.ms).toBe("number");
    expect(line?.tokenId).toMatch(/^[0-9a-f-]{36}$/);
    const log = fs.readFileSync(server.logFile, "utf8");
    for (const token of Object.values(tokens)) expect(log).not.toContain(token);
  });
});

describe("metrics", () => {
  it("refuses a missing or wrong token", async () => {
    const missing = await call("/api/metrics");
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    const wrong = await call("/api/metrics", { token: "not-the-metrics-token" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 401, reason: "invalid_token", message: "the bearer token is not a valid token" });
  });

  it("answers Prometheus text with requests by route, refusals by policy, intents, the outbox and the process", async () => {
    await call(CATALOG, { token: tokens.b });
    const res = await call("/api/metrics", { token: METRICS_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body as string;
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}"()]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);
    expect(value('gk_http_requests_total{route="/api/v1/gifts/catalog",method="GET",status="200"}')).toBeGreaterThanOrEqual(5);
    expect(value('gk_http_requests_total{route="/api/v1/gifts/catalog",method="GET",status="429"}')).toBeGreaterThanOrEqual(1);
    expect(value('gk_rate_limited_total{policy="token"}')).toBeGreaterThanOrEqual(1);
    expect(value('gk_rate_limited_total{policy="promo"}')).toBeGreaterThanOrEqual(1);
    expect(value('gk_intents_created_total{kind="gift"}')).toBeGreaterThanOrEqual(2);
    expect(value('gk_callback_outbox_pending{due="yes"}')).toBe(0);
    expect(text).toMatch(/^gk_http_request_duration_seconds_bucket\{le="0\.1",route="\/api\/v1\/gifts\/catalog",method="GET"\} \d+$/m);
    expect(text).toMatch(/^gk_process_resident_memory_bytes \d+/m);
    expect(text).not.toContain(tokens.b);
  });

  it("does not exist where METRICS_TOKEN is not set", async () => {
    const res = await fetch(`${inject("appBaseUrl")}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(404);
  });
});
