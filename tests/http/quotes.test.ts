import { describe, expect, inject, it } from "vitest";
import { api, appQuery, intentCount } from "./support";

const gift = (overrides: Record<string, unknown> = {}, target: Record<string, unknown> = {}) => ({
  platform: "store-gift",
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU", ...target },
  email: "gamer@example.com",
  fee: "excluded",
  ...overrides,
});
const gear = (overrides: Record<string, unknown> = {}) => ({
  account: "76561198000000001",
  platform: "730",
  item: "sticker-capsule",
  email: "gamer@example.com",
  ...overrides,
});

/** Wrong promo codes counted against the `full` token's owner in the current window. */
async function promoGuesses(): Promise<number> {
  const [row] = await appQuery<{ n: number }>(
    "SELECT coalesce(sum(count), 0)::int AS n FROM rate_limits WHERE key LIKE 'promo:user:%' AND expires_at > now()",
  );
  return row!.n;
}

async function available(item: string): Promise<number> {
  const res = await api("/api/v1/gear/items?platform=730&limit=100");
  return res.body.items.find((i: { item: string }) => i.item === item).available;
}

const amounts = (b: Record<string, unknown>) => ({
  intentAmount: b.intentAmount,
  discountAmount: b.discountAmount,
  feeAmount: b.feeAmount,
  paymentAmount: b.paymentAmount,
});

describe("POST /gifts/quote", () => {
  it.each([
    ["excluded fee", gift()],
    ["included fee", gift({ fee: "included" })],
    ["naive fee and a code", gift({ fee: "naive", code: "welcome10" })],
    ["another edition and a fixed code", gift({ item: "1091500", code: "MINUS300" }, { packageId: 10915002 })],
  ])("answers what verify then charges, with %s, creating nothing", async (_, body) => {
    const before = await intentCount();
    const quoted = await api("/api/v1/gifts/quote", { body });
    expect(quoted.status).toBe(200);
    expect(quoted.body).toMatchObject({ code: 200, purchasable: true, refusals: [], intentCurrency: "RUB", paymentCurrency: "RUB" });
    expect(await intentCount()).toBe(before);
    const verified = await api("/api/v1/gifts/verify", { body });
    expect(verified.status).toBe(201);
    expect(amounts(quoted.body)).toEqual(amounts(verified.body));
  });

  it("prices a body whose recipient and e-mail are still missing", async () => {
    const res = await api("/api/v1/gifts/quote", { body: { item: "620", fee: "included", code: "PORTAL50" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      purchasable: true,
      intentAmount: 39900,
      discountAmount: 19950,
      paymentAmount: 19950,
      fee: "included",
    });
  });

  it("lists every refusal at once and counts a wrong code as a guess", async () => {
    const guesses = await promoGuesses();
    const res = await api("/api/v1/gifts/quote", { body: gift({ code: "NOPE42" }, { region: "ZZ" }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ purchasable: false, intentAmount: 39900, discountAmount: 0, paymentAmount: 41895 });
    expect(res.body.refusals).toEqual([
      { reason: "region_not_giftable", param: "target.region", message: expect.stringContaining("cannot be gifted to region ZZ") },
      { reason: "promo_code_unknown", param: "code", message: expect.stringContaining("NOPE42") },
    ]);
    expect(await promoGuesses()).toBe(guesses + 1);
  });

  it("names the friend the invite link encodes, as verify does", async () => {
    const body = gift();
    const quoted = await api("/api/v1/gifts/quote", { body });
    expect(quoted.body.recipient).toEqual({ accountId: 893502140, steamId64: "76561198853767868" });
    const verified = await api("/api/v1/gifts/verify", { body });
    expect(quoted.body.recipient).toEqual(verified.body.recipient);
    const unnamed = await api("/api/v1/gifts/quote", { body: { item: "620", fee: "included" } });
    expect(unnamed.body.recipient).toBeNull();
  });

  it("lists a link that names no account with the region's and the code's refusals", async () => {
    const res = await api("/api/v1/gifts/quote", {
      body: gift({ code: "NOPE42" }, { inviteUrl: "https://s.team/p/abcd-efgh/QWERTYUI", region: "ZZ" }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ purchasable: false, recipient: null });
    expect(res.body.refusals.map((r: { reason: string; param: string }) => [r.reason, r.param])).toEqual([
      ["invite_link_undecodable", "target.inviteUrl"],
      ["region_not_giftable", "target.region"],
      ["promo_code_unknown", "code"],
    ]);
  });

  it.each([
    ["a region the edition is restricted in", "AM", "region_restricted", "may not be gifted to region AM"],
    ["a region whose local price is too far from the store's", "BY", "region_price_gap", "cannot be gifted to region BY"],
  ])("reports %s, as verify refuses it", async (_, region, reason, message) => {
    const body = gift({ item: "1091500" }, { region });
    const quoted = await api("/api/v1/gifts/quote", { body });
    expect(quoted.status).toBe(200);
    expect(quoted.body).toMatchObject({ purchasable: false, intentAmount: expect.any(Number) });
    expect(quoted.body.refusals).toEqual([{ reason, param: "target.region", message: expect.stringContaining(message) }]);
    const verified = await api("/api/v1/gifts/verify", { body });
    expect(verified.status).toBe(409);
    expect(verified.body).toMatchObject({ reason, message: quoted.body.refusals[0].message });
  });

  it("gives a right code's guess back, and a used-up code is refused but no guess", async () => {
    const guesses = await promoGuesses();
    expect((await api("/api/v1/gifts/quote", { body: gift({ code: "WELCOME10" }) })).body.refusals).toEqual([]);
    const used = await api("/api/v1/gifts/quote", { body: gift({ code: "USEDUP" }) });
    expect(used.body.refusals).toEqual([{ reason: "promo_code_used_up", param: "code", message: expect.any(String) }]);
    expect(await promoGuesses()).toBe(guesses);
  });

  it.each([
    ["an unknown game", { item: "999999999", fee: "excluded" }, 404, "game_not_found"],
    ["a malformed invite link", gift({}, { inviteUrl: "https://example.com" }), 400, "invalid_field"],
    ["an unknown field", gift({ price: 1 }), 400, "unknown_field"],
  ])("refuses %s as verify does", async (_, body, status, reason) => {
    const res = await api("/api/v1/gifts/quote", { body });
    expect(res.status).toBe(status);
    expect(res.body.reason).toBe(reason);
  });

  it("needs the gifts:verify scope", async () => {
    const res = await api("/api/v1/gifts/quote", { token: inject("appTokens").gearOnly, body: gift() });
    expect(res.status).toBe(403);
  });
});

describe("POST /gear/quote", () => {
  it("answers what POST /gear then charges, reserving nothing", async () => {
    const before = { intents: await intentCount(), available: await available("sticker-capsule") };
    const quoted = await api("/api/v1/gear/quote", { body: gear({ code: "GEAR15" }) });
    expect(quoted.status).toBe(200);
    expect(quoted.body).toMatchObject({ purchasable: true, intentAmount: 9900, paymentAmount: 8836, fee: "excluded", refusals: [] });
    expect(await intentCount()).toBe(before.intents);
    expect(await available("sticker-capsule")).toBe(before.available);
    const created = await api("/api/v1/gear", { body: gear({ code: "GEAR15" }) });
    expect(created.status).toBe(201);
    expect(amounts(quoted.body)).toEqual(amounts(created.body));
  });

  it("lists a wrong code and no stock together, counting one guess", async () => {
    const guesses = await promoGuesses();
    const res = await api("/api/v1/gear/quote", { body: gear({ item: "awp-asiimov", code: "PORTAL50" }) });
    expect(res.status).toBe(200);
    expect(res.body.purchasable).toBe(false);
    expect(res.body.refusals.map((r: { reason: string; param: string }) => [r.reason, r.param])).toEqual([
      ["promo_code_not_for_gear", "code"],
      ["out_of_stock", "item"],
    ]);
    expect(await promoGuesses()).toBe(guesses + 1);
  });

  it("prices an item before the account is typed, and refuses an unknown item with 404", async () => {
    const priced = await api("/api/v1/gear/quote", { body: { platform: "730", item: "sticker-capsule" } });
    expect(priced.body).toMatchObject({ purchasable: true, paymentAmount: 10395 });
    const unknown = await api("/api/v1/gear/quote", { body: { platform: "730", item: "nope" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.reason).toBe("item_not_found");
  });
});
