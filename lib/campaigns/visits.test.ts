import { describe, expect, it } from "vitest";
import {
  bufferVisit,
  campaignVisitOf,
  storeDay,
  takeBufferedVisits,
  VISIT_BUFFER_LIMIT,
  type PageRequest,
  type VisitBuffer,
} from "./visits";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
// 23:30 in Moscow on 1 March, still 20:30 on the same day in UTC; 21:30 UTC is 2 March in Moscow.
const now = new Date("2026-03-01T20:30:00.000Z");

function request(
  url: string,
  headers: Record<string, string> = { "user-agent": CHROME, "sec-fetch-dest": "document" },
  method = "GET",
): PageRequest {
  const parsed = new URL(url, "https://store.test");
  return { method, pathname: parsed.pathname, searchParams: parsed.searchParams, headers: new Headers(headers) };
}

describe("campaignVisitOf", () => {
  it.each([
    ["/?utm_source=newsletter&utm_medium=email&utm_campaign=spring", { source: "newsletter", medium: "email", campaign: "spring" }],
    ["/games/620?utm_source=vk", { source: "vk", medium: "", campaign: "" }],
    ["/gear?platform=570&utm_medium=cpc&utm_content=banner&utm_term=dota", { source: "", medium: "cpc", campaign: "" }],
    ["/?utm_source=%20tg%20&utm_campaign=", { source: "tg", medium: "", campaign: "" }],
  ])("a page load of %s is a visit of %j", (url, campaign) => {
    expect(campaignVisitOf(request(url), now)).toEqual({ day: "2026-03-01", ...campaign });
  });

  it("counts a load without fetch metadata (an older browser) the same", () => {
    expect(campaignVisitOf(request("/?utm_source=vk", { "user-agent": CHROME }), now)).toMatchObject({ source: "vk" });
  });

  it.each([
    ["no campaign", request("/?platform=570")],
    ["only a campaign name", request("/?utm_campaign=spring")],
    ["a value the API would refuse", request(`/?utm_source=${"x".repeat(201)}`)],
    ["a form post", request("/?utm_source=vk", { "user-agent": CHROME }, "POST")],
    ["the back office", request("/admin/campaigns?utm_source=vk")],
    ["a client navigation's RSC payload", request("/?utm_source=vk", { "user-agent": CHROME, rsc: "1" })],
    ["an RSC request by its query", request("/?utm_source=vk&_rsc=abc")],
    ["a router prefetch", request("/?utm_source=vk", { "user-agent": CHROME, "next-router-prefetch": "1" })],
    ["a speculative prefetch", request("/?utm_source=vk", { "user-agent": CHROME, "sec-purpose": "prefetch;prerender" })],
    ["an old-style prefetch", request("/?utm_source=vk", { "user-agent": CHROME, purpose: "prefetch" })],
    ["a frame", request("/?utm_source=vk", { "user-agent": CHROME, "sec-fetch-dest": "iframe" })],
    ["a fetch() call", request("/?utm_source=vk", { "user-agent": CHROME, "sec-fetch-dest": "empty" })],
    ["no user agent", request("/?utm_source=vk", {})],
    ["Telegram's link preview", request("/?utm_source=tg", { "user-agent": "TelegramBot (like TwitterBot)" })],
    ["Googlebot", request("/?utm_source=vk", { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" })],
    ["YandexBot", request("/?utm_source=vk", { "user-agent": "Mozilla/5.0 (compatible; YandexBot/3.0)" })],
    ["VK's share preview", request("/?utm_source=vk", { "user-agent": "Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)" })],
    ["WhatsApp", request("/?utm_source=wa", { "user-agent": "WhatsApp/2.23.20.0 A" })],
    ["Facebook", request("/?utm_source=fb", { "user-agent": "facebookexternalhit/1.1" })],
    ["curl", request("/?utm_source=vk", { "user-agent": "curl/8.5.0" })],
    ["a Python script", request("/?utm_source=vk", { "user-agent": "python-requests/2.31" })],
  ])("%s is no visit", (_, req) => {
    expect(campaignVisitOf(req, now)).toBeNull();
  });

  it("dates the visit by the store's (Moscow) calendar", () => {
    expect(campaignVisitOf(request("/?utm_source=vk"), new Date("2026-03-01T21:30:00.000Z"))?.day).toBe("2026-03-02");
    expect(storeDay(new Date("2026-12-31T20:59:59.999Z"))).toBe("2026-12-31");
    expect(storeDay(new Date("2026-12-31T21:00:00.000Z"))).toBe("2027-01-01");
  });
});

describe("the visit buffer", () => {
  const key = (campaign: string) => ({ day: "2026-03-01", source: "vk", medium: "cpc", campaign });

  it("adds up visits per campaign and day, and hands them over once", () => {
    const buffer: VisitBuffer = { counts: new Map(), dropped: 0 };
    bufferVisit(key("a"), 1, buffer);
    bufferVisit(key("a"), 1, buffer);
    bufferVisit(key("b"), 1, buffer);
    bufferVisit({ ...key("a"), day: "2026-03-02" }, 1, buffer);
    expect(takeBufferedVisits(buffer)).toEqual([
      { key: key("a"), visits: 2 },
      { key: key("b"), visits: 1 },
      { key: { ...key("a"), day: "2026-03-02" }, visits: 1 },
    ]);
    expect(takeBufferedVisits(buffer)).toEqual([]);
  });

  it("keeps counting known campaigns when full, and counts what it had to drop", () => {
    const buffer: VisitBuffer = { counts: new Map(), dropped: 0 };
    for (let i = 0; i < VISIT_BUFFER_LIMIT; i++) bufferVisit(key(`c${i}`), 1, buffer);
    bufferVisit(key("new"), 1, buffer);
    bufferVisit(key("c0"), 1, buffer);
    expect(buffer.counts.size).toBe(VISIT_BUFFER_LIMIT);
    expect(buffer.dropped).toBe(1);
    expect(buffer.counts.get(JSON.stringify(["2026-03-01", "vk", "cpc", "c0"]))?.visits).toBe(2);
  });
});
