// Inputs that once reached a 500 (issue 11, findings 5 to 9): each now gets the 4xx or the redirect
// it should, through the real server.
import http from "node:http";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { api, appQuery, intentCount } from "./support";

const base = () => inject("appBaseUrl");
const tradeLink = "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12";

const gearBody = (overrides: Record<string, unknown> = {}) => ({
  account: "76561198000000001",
  platform: "730",
  item: "sticker-capsule",
  email: "hostile@example.com",
  ...overrides,
});
const giftBody = (overrides: Record<string, unknown> = {}) => ({
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "hostile@example.com",
  fee: "excluded",
  ...overrides,
});

async function create(path: "/api/v1/gear" | "/api/v1/gifts/verify", body: Record<string, unknown>): Promise<string> {
  const res = await api(path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.intentId;
}

/** The payment page's button, as a browser without JavaScript presses it; redirects are not followed. */
async function press(intentId: string, choice: "pay" | "decline") {
  const res = await fetch(`${base()}/pay/${intentId}/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `choice=${choice}`,
    redirect: "manual",
  });
  await res.text();
  return { status: res.status, location: res.headers.get("location") };
}

/** A request with any method (fetch refuses TRACE and TRACK), read whole. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base()}${path}`, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Bytes written straight to the socket, for what no HTTP client sends; the whole answer, "" if none. */
function rawExchange(request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(base()).port), "127.0.0.1", () => socket.end(request));
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => {});
  });
}

const HEADER_SAFE = /^[\x21-\x7e]+$/;

describe("finding 5: successUrl and failureUrl end up in a Location header", () => {
  const urls = [
    ["an IDN host", "https://пример.рф/ok?order=42", "https://xn--e1afmkfd.xn--p1ai/ok?order=42"],
    [
      "a Cyrillic path and query",
      "https://partner.example.com/заказ/42?статус=ok",
      "https://partner.example.com/%D0%B7%D0%B0%D0%BA%D0%B0%D0%B7/42?%D1%81%D1%82%D0%B0%D1%82%D1%83%D1%81=ok",
    ],
    [
      "encoded line breaks",
      "https://partner.example.com/ok%0d%0aSet-Cookie:%20a=1",
      "https://partner.example.com/ok%0d%0aSet-Cookie:%20a=1",
    ],
    // JSON.stringify writes the CR LF as the escapes \r\n inside the JSON string.
    ["raw line breaks", "https://partner.example.com/ok\r\nSet-Cookie: a=1", "https://partner.example.com/okSet-Cookie:%20a=1"],
  ] as const;

  it.each(urls)("gear with %s: Pay answers 303 to the URL's href, and so does every later press", async (_, url, href) => {
    const id = await create("/api/v1/gear", gearBody({ successUrl: url, failureUrl: url }));
    expect((await api(`/api/v1/intents/${id}`)).body).toMatchObject({ successUrl: href, failureUrl: href });
    for (let i = 0; i < 2; i++) expect(await press(id, "pay")).toEqual({ status: 303, location: href });
    expect(href).toMatch(HEADER_SAFE);
    expect((await api(`/api/v1/intents/${id}`)).body.status).toBe("paid");
  });

  it.each(urls)("gift with %s: Decline answers 303 to the URL's href, twice", async (_, url, href) => {
    const id = await create("/api/v1/gifts/verify", giftBody({ successUrl: url, failureUrl: url }));
    for (let i = 0; i < 2; i++) expect(await press(id, "decline")).toEqual({ status: 303, location: href });
    expect((await api(`/api/v1/intents/${id}`)).body.status).toBe("canceled");
  });

  it("intents stored before URLs were normalised still redirect: to their href, or to the result page", async () => {
    const id = await create("/api/v1/gear", gearBody({ successUrl: "https://partner.example.com/ok" }));
    await appQuery("UPDATE intents SET success_url = $2 WHERE id = $1", [id, "https://пример.рф/ok\r\nSet-Cookie: a=1"]);
    for (let i = 0; i < 2; i++)
      expect(await press(id, "pay")).toEqual({ status: 303, location: "https://xn--e1afmkfd.xn--p1ai/okSet-Cookie:%20a=1" });

    const other = await create("/api/v1/gear", gearBody({ failureUrl: "https://partner.example.com/fail" }));
    await appQuery("UPDATE intents SET failure_url = $2 WHERE id = $1", [other, "не адрес\r\n"]);
    for (let i = 0; i < 2; i++) expect(await press(other, "decline")).toEqual({ status: 303, location: `/pay/${other}/result` });
  });
});

describe("finding 6: a lone surrogate in any string field", () => {
  it.each([
    ["/api/v1/gear", gearBody({ attribution: { utm_source: "\ud800" } }), "attribution.utm_source"],
    ["/api/v1/gifts/verify", giftBody({ attribution: { utm_source: "vk", utm_campaign: "spring\udfff" } }), "attribution.utm_campaign"],
    ["/api/v1/gear", gearBody({ additionalFields: { storeId: "shop-\udc00-1" } }), "additionalFields.storeId"],
    [
      "/api/v1/gifts/verify",
      giftBody({ target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "R\ud83d" } }),
      "target.region",
    ],
    ["/api/v1/gear", gearBody({ attribution: { "\ud800": "x" } }), "attribution"],
  ] as const)("%s %j is 400 invalid_field naming the field, and writes nothing", async (path, body, param) => {
    // JSON.stringify writes a lone surrogate as its escape (\ud800), as a hostile client would.
    expect(JSON.stringify(body)).toMatch(/\\ud[89a-f][0-9a-f]{2}/);
    const before = await intentCount();
    const res = await api(path, { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, reason: "invalid_field", param });
    expect(res.body.message).toContain(param);
    expect(await intentCount()).toBe(before);
  });

  it("a well-formed pair (an emoji) is still fine", async () => {
    await create("/api/v1/gear", gearBody({ attribution: { utm_source: "vk", utm_campaign: "весна 🎮" } }));
  });
});

describe("finding 7: POST /api/storefront/token with an Origin that is not a URL", () => {
  it.each(["null", "garbage", "http://[::1", "https://"])("Origin: %s is 403 forbidden_origin", async (origin) => {
    const res = await api("/api/storefront/token", { token: null, method: "POST", headers: { origin } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 403, reason: "forbidden_origin" });
  });

  it("the store's own origin still gets a token", async () => {
    const res = await api("/api/storefront/token", { token: null, method: "POST", headers: { origin: base() } });
    expect(res.status).toBe(200);
  });
});

describe("finding 8: methods and requests Next does not route", () => {
  it.each([
    ["TRACE", "/"],
    ["TRACE", "/games/620"],
    ["TRACE", "/api/v1/gifts/catalog"],
    ["TRACE", "/api/storefront/token"],
    ["PROPFIND", "/"],
    ["PROPFIND", "/api/v1/gear"],
    ["PURGE", "/pay/00000000-0000-4000-8000-000000000000/submit"],
  ])("%s %s is 405 method_not_allowed with Allow", async (method, path) => {
    const res = await raw(method, path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(JSON.parse(res.body)).toMatchObject({
      code: 405,
      reason: "method_not_allowed",
      message: `${method} is not allowed here; allowed: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS`,
    });
  });

  it.each(["TRACK", "CONNECT"])("%s never reaches the app: Node's parser answers 400 or closes the connection", async (method) => {
    const answer = await rawExchange(`${method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(answer === "" || /^HTTP\/1\.1 4\d\d /.test(answer), answer.slice(0, 100)).toBe(true);
  });

  it("the methods Next routes still reach their routes", async () => {
    expect((await raw("GET", "/api/v1/gifts/catalog?limit=1")).status).toBe(401);
    expect((await raw("DELETE", "/api/v1/gear")).status).toBe(405);
  });

  it("GET /api/auth/callback/credentials is 405 with Allow: POST (the sign-in form posts)", async () => {
    const res = await api("/api/auth/callback/credentials", { token: null });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.body).toMatchObject({ code: 405, reason: "method_not_allowed" });
  });

  it.each(["https://evil.example", "null", "garbage"])("a server action posted from Origin: %s is 403 forbidden_origin", async (origin) => {
    const res = await raw("POST", "/account", {
      "next-action": "7f00000000000000000000000000000000000000",
      origin,
      "content-type": "text/plain;charset=UTF-8",
      "content-length": "0",
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 403, reason: "forbidden_origin" });
  });
});

describe("finding 9: a trade link that gives partner or token twice", () => {
  it.each([
    ["two partners", `${tradeLink}&partner=12345`],
    ["two partners, the first someone else's", tradeLink.replace("partner=39734273", "partner=12345&partner=39734273")],
    ["two tokens", `${tradeLink}&token=ZzZzZz99`],
  ])("%s is 400 invalid_field on additionalFields.tradeLink", async (_, link) => {
    const before = await intentCount();
    const res = await api("/api/v1/gear", { body: gearBody({ additionalFields: { tradeLink: link } }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, reason: "invalid_field", param: "additionalFields.tradeLink" });
    expect(await intentCount()).toBe(before);
  });
});
