import { describe, expect, inject, it } from "vitest";
import { api, appQuery, intentCount } from "./support";

const VERIFY = "/api/v1/gifts/verify";
const gift = (overrides: Record<string, unknown> = {}, target: Record<string, unknown> = {}) => ({
  platform: "store-gift",
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU", ...target },
  email: "gamer@example.com",
  fee: "excluded",
  ...overrides,
});

describe("POST /gifts/verify", () => {
  // Portal 2 costs 399 ₽; Cyberpunk 2077 1 499,50 ₽ (50 % off), its Ultimate Edition 4 499 ₽. Fee rate 5 %.
  // [case, body, paymentAmount, intentAmount, discountAmount, feeAmount]
  it.each([
    ["excluded fee", gift(), 41895, 39900, 0, 1995],
    ["included fee", gift({ fee: "included" }), 39900, 39900, 0, 1995],
    ["naive fee", gift({ fee: "naive" }), 42000, 39900, 0, 2100],
    ["a numeric item and no platform", gift({ item: 620, platform: undefined }), 41895, 39900, 0, 1995],
    ["a discounted game", gift({ item: "1091500" }), 157448, 149950, 0, 7498],
    ["another edition", gift({ item: "1091500" }, { packageId: 10915002 }), 472395, 449900, 0, 22495],
    ["a percent code, case-insensitive", gift({ code: "welcome10" }), 37706, 39900, 3990, 1796],
    ["a fixed code", gift({ code: "MINUS300" }), 10395, 39900, 30000, 495],
    ["a code limited to this game", gift({ code: "PORTAL50", fee: "included" }), 19950, 39900, 19950, 998],
    ["a lower-case region", gift({}, { region: "kz" }), 41895, 39900, 0, 1995],
  ])("creates an intent with %s", async (_, body, paymentAmount, intentAmount, discountAmount, feeAmount) => {
    const res = await api(VERIFY, { body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      code: 201,
      intentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      paymentAmount,
      paymentCurrency: "RUB",
      paymentUrl: `${inject("appBaseUrl")}/pay/${res.body.intentId}`,
      intentAmount,
      intentCurrency: "RUB",
      discountAmount,
      feeAmount,
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const [intent] = await appQuery(
      `SELECT kind, status, payment_amount, intent_amount, discount_amount, fee_amount, currency, email, gift_region,
              attribution, extract(epoch FROM expires_at - created_at)::int AS ttl, expires_at FROM intents WHERE id = $1`,
      [res.body.intentId],
    );
    expect(intent).toMatchObject({
      kind: "gift",
      status: "requires_payment",
      payment_amount: paymentAmount,
      intent_amount: intentAmount,
      discount_amount: discountAmount,
      fee_amount: feeAmount,
      currency: "RUB",
      attribution: null,
      ttl: 900,
    });
    expect(new Date(res.body.expiresAt).getTime()).toBe(intent.expires_at.getTime());
  });

  it("decodes the friend's account from the invite link, answers it and keeps it with the intent", async () => {
    const res = await api(VERIFY, { body: gift() });
    expect(res.body.recipient).toEqual({ accountId: 893502140, steamId64: "76561198853767868" });
    const intent = await api(`/api/v1/intents/${res.body.intentId}`);
    expect(intent.body.gift.recipientSteamId64).toBe("76561198853767868");
  });

  it.each(["https://s.team/p/abcd-efgh/QWERTYUI", "https://s.team/p/bbbb/QWERTYUI", "https://s.team/p/cbbb-bbbbb/QWERTYUI"])(
    "refuses an invite link whose code names no account: %s",
    async (inviteUrl) => {
      const res = await api(VERIFY, { body: gift({}, { inviteUrl }) });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ reason: "invite_link_undecodable", param: "target.inviteUrl" });
    },
  );

  it("records the visit's attribution with the intent (an extension beyond the description)", async () => {
    const attribution = { utm_source: "newsletter", utm_medium: "email", utm_campaign: "spring-sale" };
    const res = await api(VERIFY, { body: gift({ attribution }) });
    expect(res.status).toBe(201);
    const [intent] = await appQuery("SELECT attribution FROM intents WHERE id = $1", [res.body.intentId]);
    expect(intent.attribution).toEqual(attribution);
  });

  it.each([
    ["an unknown game", gift({ item: "999" }), 404, "game 999 not found"],
    ["another game's package", gift({}, { packageId: 10915001 }), 404, "package 10915001 is not an edition of game 620"],
    ["a coming-soon game", gift({ item: "999990" }), 409, "game 999990 is not released yet and cannot be bought"],
    ["a game with no price", gift({ item: "999991" }), 409, "game 999991 has no price yet and cannot be bought"],
    [
      "a region it cannot be gifted to",
      gift({}, { region: "TR" }),
      409,
      "game 620 cannot be gifted to region TR; it can be gifted to: RU, KZ, BY, UA, AM, GE, UZ",
    ],
    [
      "a region the edition is restricted in",
      gift({ item: "1091500" }, { region: "AM" }),
      409,
      "package 10915001 of game 1091500 may not be gifted to region AM",
    ],
    ["a non-giftable game", gift({ item: "730" }), 409, "game 730 has no price yet and cannot be bought"],
    ["an unknown promo code", gift({ code: "NOPE" }), 400, "promo code NOPE does not exist"],
    ["an expired promo code", gift({ code: "EXPIRED2025" }), 400, "promo code EXPIRED2025 has expired"],
    ["a promo code not valid yet", gift({ code: "FUTURE30" }), 400, "promo code FUTURE30 is not valid yet"],
    ["a used-up promo code", gift({ code: "USEDUP" }), 400, "promo code USEDUP has reached its usage limit"],
    ["a gear-only promo code", gift({ code: "GEAR15" }), 400, "promo code GEAR15 does not apply to gifts"],
    ["a code for another game", gift({ item: "1245620", code: "PORTAL50" }), 400, "promo code PORTAL50 does not apply to this game"],
    ["a wrong platform", gift({ platform: "store-gear" }), 400, 'platform must be "store-gift" when given'],
    ["no item", gift({ item: undefined }), 400, "item is required"],
    ["a non-numeric item", gift({ item: "portal" }), 400, "item must be the game's appId (a positive integer)"],
    ["no target", gift({ target: undefined }), 400, "target is required"],
    [
      "a bad invite link",
      gift({}, { inviteUrl: "https://evil.example/p/x/y" }),
      400,
      "target.inviteUrl must be a friend-invite link like https://s.team/p/fhgc-rdqr/NQVGTQPG",
    ],
    ["no region", gift({}, { region: undefined }), 400, "target.region is required"],
    ["a three-letter region", gift({}, { region: "RUS" }), 400, "target.region must be a two-letter region code such as RU"],
    ["a fractional package", gift({}, { packageId: 1.5 }), 400, "target.packageId must be a positive integer"],
    ["no e-mail", gift({ email: undefined }), 400, "email is required"],
    ["a bad e-mail", gift({ email: "gamer@" }), 400, "email must be a valid e-mail address"],
    ["no fee", gift({ fee: undefined }), 400, "fee is required"],
    ["an unknown fee mode", gift({ fee: "none" }), 400, "fee must be one of: included, excluded, naive"],
    ["a client-sent amount", gift({ paymentAmount: 1 }), 400, "unknown field: paymentAmount"],
    ["an empty attribution value", gift({ attribution: { utm_source: "" } }), 400, "attribution.utm_source must not be empty"],
    ["an unknown attribution field", gift({ attribution: { utm_source: "vk", gclid: "x" } }), 400, "unknown field: attribution.gclid"],
    ["an attribution that is not an object", gift({ attribution: "vk" }), 400, "attribution must be an object"],
  ])("rejects %s without recording anything", async (_, body, status, message) => {
    const before = await intentCount();
    const [promoBefore] = await appQuery("SELECT sum(uses)::int AS uses FROM promo_codes");
    const res = await api(VERIFY, { body });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code: status, message });
    expect(await intentCount()).toBe(before);
    const [promoAfter] = await appQuery("SELECT sum(uses)::int AS uses FROM promo_codes");
    expect(promoAfter).toEqual(promoBefore);
  });

  it("counts a promo code use with the intent", async () => {
    const [before] = await appQuery("SELECT uses FROM promo_codes WHERE code = 'WELCOME10'");
    const res = await api(VERIFY, { body: gift({ code: "WELCOME10" }) });
    expect(res.status).toBe(201);
    const [after] = await appQuery("SELECT uses FROM promo_codes WHERE code = 'WELCOME10'");
    expect(after.uses).toBe(before.uses + 1);
  });
});
