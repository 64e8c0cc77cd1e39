import { describe, expect, inject, it } from "vitest";
import { api, appQuery, intentCount } from "./support";

const GEAR = "/api/v1/gear";
const ACCOUNT = "76561198000000001"; // account id 39734273
const TRADE_LINK = "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12";
const gear = (overrides: Record<string, unknown> = {}) => ({
  account: ACCOUNT,
  platform: "730",
  item: "sticker-capsule",
  email: "gamer@example.com",
  ...overrides,
});

async function available(platform: string, item: string): Promise<number> {
  const res = await api(`/api/v1/gear/items?platform=${platform}&limit=100`);
  return res.body.items.find((i: { item: string }) => i.item === item).available;
}

describe("POST /gear", () => {
  it("reserves the item and answers with the amounts", async () => {
    const before = await available("730", "sticker-capsule");
    const res = await api(GEAR, {
      body: gear({
        fee: "excluded",
        additionalFields: { storeId: "partner-42", tradeLink: TRADE_LINK },
        attribution: { utm_source: "vk", utm_medium: "cpc" },
        successUrl: "https://partner.example.com/ok",
        failureUrl: "https://partner.example.com/fail",
        callbackUrl: "https://partner.example.com/hook",
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      code: 201,
      intentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      verified: true,
      intentAmount: 9900,
      intentCurrency: "RUB",
      paymentAmount: 10395,
      paymentCurrency: "RUB",
      discountAmount: 0,
      feeAmount: 495,
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      message: expect.stringContaining("Sticker Capsule 2 is reserved until"),
      paymentUrl: `${inject("appBaseUrl")}/pay/${res.body.intentId}`,
    });
    expect(await available("730", "sticker-capsule")).toBe(before - 1);
    const [intent] = await appQuery("SELECT * FROM intents WHERE id = $1", [res.body.intentId]);
    expect(intent).toMatchObject({
      kind: "gear",
      status: "requires_payment",
      account: ACCOUNT,
      trade_link: TRADE_LINK,
      store_id: "partner-42",
      attribution: { utm_source: "vk", utm_medium: "cpc" },
      callback_url: "https://partner.example.com/hook",
      intent_amount: 9900,
      fee_amount: 495,
      payment_amount: 10395,
    });
  });

  it.each([
    ["GEAR15", 8836],
    ["welcome10", 9356], // 9900 - 990 = 8910, + round(445.5) = 446
  ])("applies the promo code %s", async (code, paymentAmount) => {
    const res = await api(GEAR, { body: gear({ code }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ intentAmount: 9900, paymentAmount });
  });

  it.each([
    ["an out-of-stock item", gear({ item: "awp-asiimov" }), 409, "item awp-asiimov is out of stock"],
    ["an unknown item", gear({ item: "nope" }), 404, "item nope not found on platform 730"],
    ["an unknown platform", gear({ platform: "999" }), 404, "platform 999 not found"],
    ["an item of another platform", gear({ platform: "570", item: "ak47-redline" }), 404, "item ak47-redline not found on platform 570"],
    ["a gift-only promo code", gear({ code: "PORTAL50" }), 400, "promo code PORTAL50 does not apply to gear"],
    ["an expired promo code", gear({ code: "EXPIRED2025" }), 400, "promo code EXPIRED2025 has expired"],
    ["a fee mode other than excluded", gear({ fee: "included" }), 400, 'fee must be "excluded" (the only fee mode for gear)'],
    ["no account", gear({ account: undefined }), 400, "account is required"],
    [
      "a 16-digit account",
      gear({ account: "7656119800000000" }),
      400,
      "account must be a SteamID64 of an individual account (17 digits, starting 7656119)",
    ],
    ["a numeric account", gear({ account: 76561198000000001 }), 400, "account must be a SteamID64 string of 17 digits"],
    [
      "a trade link of another account",
      gear({ additionalFields: { tradeLink: TRADE_LINK.replace("39734273", "1") } }),
      400,
      "additionalFields.tradeLink belongs to another account than account",
    ],
    [
      "a malformed trade link",
      gear({ additionalFields: { tradeLink: "https://steamcommunity.com/id/me" } }),
      400,
      "additionalFields.tradeLink must look like https://steamcommunity.com/tradeoffer/new/?partner=<account id>&token=<8 characters>",
    ],
    [
      "a javascript: success URL",
      gear({ successUrl: "javascript:alert(document.cookie)" }),
      400,
      "successUrl must be an absolute https:// URL (http:// only for localhost)",
    ],
    [
      "a relative failure URL",
      gear({ failureUrl: "/fail" }),
      400,
      "failureUrl must be an absolute https:// URL (http:// only for localhost)",
    ],
    [
      "a plain-http callback",
      gear({ callbackUrl: "http://partner.example.com/hook" }),
      400,
      "callbackUrl must be an absolute https:// URL",
    ],
    ["no platform", gear({ platform: undefined }), 400, "platform is required"],
    ["no item", gear({ item: undefined }), 400, "item is required"],
    ["an unknown field", gear({ price: 1 }), 400, "unknown field: price"],
    ["a non-object attribution", gear({ attribution: "vk" }), 400, "attribution must be an object"],
  ])("rejects %s without recording anything", async (_, body, status, message) => {
    const before = await intentCount();
    const res = await api(GEAR, { body });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: status, message });
    expect(await intentCount()).toBe(before);
  });

  it("never reserves more units than the stock when 500 requests race", async () => {
    await appQuery("INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'race-item', 'Race Item', 10000, 25)");
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) => api(GEAR, { body: gear({ item: "race-item", email: `racer${i}@example.com` }) })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(25);
    expect(statuses.filter((s) => s === 409)).toHaveLength(475);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toMatchObject({ code: 409, message: "item race-item is out of stock" });
    }
    const [row] = await appQuery(
      "SELECT count(*)::int AS n FROM intents i JOIN gear_items g ON g.id = i.gear_item_id WHERE g.item = 'race-item'",
    );
    expect(row.n).toBe(25);
    expect(await available("730", "race-item")).toBe(0);
  });
});

describe("GET /gear/items", () => {
  it("lists items of a platform with price and availability", async () => {
    const res = await api("/api/v1/gear/items?platform=570");
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const item of res.body.items) expect(item.platform).toBe("570");
    expect(res.body.items).toContainEqual({
      item: "arcana-juggernaut",
      title: "Bladeform Legacy (Arcana)",
      platform: "570",
      price: { paymentAmount: 249900, paymentCurrency: "RUB" },
      available: 10,
    });
  });

  it("lists every platform's items without a filter and pages them", async () => {
    const all = await api("/api/v1/gear/items?limit=100");
    const platforms = new Set(all.body.items.map((i: { platform: string }) => i.platform));
    expect(platforms).toEqual(new Set(["730", "570"]));
    const page = await api("/api/v1/gear/items?limit=2&page=1");
    expect(page.body.items).toEqual(all.body.items.slice(2, 4));
    expect(page.body.total).toBe(all.body.total);
  });

  it.each([
    ["platform=cs", "platform must be the game's appId (a positive integer)"],
    ["limit=0", "limit must be an integer from 1 to 100"],
  ])("rejects %s", async (qs, message) => {
    const res = await api(`/api/v1/gear/items?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 400, message });
  });
});
