import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { localizeApiError, localizeIssues } from "./checkout-errors";
import { messages } from "./messages";

const ru = messages.ru;
const en = messages.en;

function fieldsFor(schema: z.ZodType, input: unknown, t = ru) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected the input to be refused");
  return localizeIssues(result.error, input, t);
}

const gift = {
  platform: "store-gift",
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU", packageId: 6201 },
  email: "gamer@example.com",
  fee: "excluded",
};
const ACCOUNT = "76561198000000001"; // account id 39734273
const LINK = "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12";
const gear = { account: ACCOUNT, platform: "730", item: "ak47-redline", email: "gamer@example.com", additionalFields: { tradeLink: LINK } };

describe("localizeIssues: the API's schemas, in the shopper's language, by field", () => {
  it("gives every field of an empty gift form its own 'required' sentence", () => {
    const empty = { ...gift, target: { inviteUrl: "", region: "" }, email: "" };
    expect(fieldsFor(giftVerifyRequestSchema, empty)).toEqual({
      fields: {
        inviteUrl: "Вставьте ссылку-приглашение друга.",
        region: "Выберите регион получателя.",
        email: "Укажите e-mail: на него придёт чек.",
      },
      form: [],
    });
    expect(fieldsFor(giftVerifyRequestSchema, empty, en).fields).toEqual({
      inviteUrl: "Paste your friend's invite link.",
      region: "Choose the recipient's region.",
      email: "Enter your e-mail: the receipt goes there.",
    });
  });

  it.each([
    [{ ...gift, target: { ...gift.target, inviteUrl: "https://evil.example/p/x/y" } }, "inviteUrl", "Это не ссылка-приглашение. Нужна ссылка вида https://s.team/p/abcd-efgh/ABCDEFGH."],
    [{ ...gift, target: { ...gift.target, inviteUrl: `https://s.team/p/${"a".repeat(520)}` } }, "inviteUrl", "Ссылка слишком длинная: это точно ссылка-приглашение?"],
    [{ ...gift, target: { ...gift.target, region: "RUS" } }, "region", "Выберите регион из списка."],
    [{ ...gift, target: { ...gift.target, packageId: 1.5 } }, "packageId", "Выберите издание из списка."],
    [{ ...gift, email: "gamer@" }, "email", "Проверьте e-mail: нужен адрес вида name@example.com."],
    [{ ...gift, email: `${"a".repeat(250)}@x.io` }, "email", "E-mail слишком длинный (не больше 254 символов)."],
    [{ ...gift, fee: "free" }, "fee", "Выберите, как учитывать комиссию."],
    [{ ...gift, code: "BAD CODE!" }, "code", "В промокоде бывают только латинские буквы, цифры, «-» и «_» (до 64 символов)."],
  ])("gift %#: %s", (input, field, message) => {
    expect(fieldsFor(giftVerifyRequestSchema, input)).toEqual({ fields: { [field]: message }, form: [] });
  });

  it.each([
    [{ ...gear, account: "" }, "account", "Укажите SteamID64 аккаунта."],
    [{ ...gear, account: "76561197960265728" }, "account", "SteamID64 — это 17 цифр, начинается с 7656119."],
    [{ ...gear, item: "" }, "item", "Выберите предмет."],
    [{ ...gear, additionalFields: { tradeLink: "" } }, "tradeLink", "Вставьте трейд-ссылку: по ней придёт предмет."],
    [{ ...gear, additionalFields: { tradeLink: "https://steamcommunity.com/id/me" } }, "tradeLink", "Это не трейд-ссылка. Нужна ссылка вида https://steamcommunity.com/tradeoffer/new/?partner=…&token=…."],
    [{ ...gear, additionalFields: { tradeLink: LINK.replace("39734273", "39734274") } }, "tradeLink", "Трейд-ссылка принадлежит другому аккаунту, не этому SteamID64."],
    [{ ...gear, platform: "cs2" }, "platform", "Выберите игру из списка."],
  ])("gear %#: %s", (input, field, message) => {
    expect(fieldsFor(gearIntentRequestSchema, input)).toEqual({ fields: { [field]: message }, form: [] });
  });

  it("says the mismatch in English too", () => {
    const input = { ...gear, additionalFields: { tradeLink: LINK.replace("39734273", "39734274") } };
    expect(fieldsFor(gearIntentRequestSchema, input, en).fields).toEqual({
      tradeLink: "This trade link belongs to another account, not to this SteamID64.",
    });
  });

  it("keeps the schema's own sentence for a problem no field on the form shows", () => {
    expect(fieldsFor(gearIntentRequestSchema, { ...gear, attribution: { utm_source: "" } })).toEqual({
      fields: {},
      form: ["attribution.utm_source must not be empty"],
    });
  });
});

describe("localizeApiError: the API's answers, beside the field they are about", () => {
  const regionName = (code: string) => ({ RU: "Россия", KZ: "Казахстан", TR: "Турция" })[code] ?? code;

  it.each([
    [409, "game 1245620 cannot be gifted to region KZ; it can be gifted to: RU", { field: "region", message: "Эту игру нельзя подарить в регион «Казахстан». Доступны: Россия." }],
    [409, "game 620 cannot be gifted to region TR", { field: "region", message: "Эту игру нельзя подарить в регион «Турция». Доступны: —." }],
    [400, "promo code NOPE does not exist", { field: "code", message: "Промокода NOPE нет. Проверьте, как он написан." }],
    [400, "promo code EXPIRED2025 has expired", { field: "code", message: "Срок действия промокода EXPIRED2025 истёк." }],
    [400, "promo code FUTURE30 is not valid yet", { field: "code", message: "Промокод FUTURE30 ещё не действует." }],
    [400, "promo code USEDUP has reached its usage limit", { field: "code", message: "Промокод USEDUP уже использован максимальное число раз." }],
    [400, "promo code GEAR15 does not apply to gifts", { field: "code", message: "Промокод GEAR15 не действует на подарки." }],
    [400, "promo code PORTAL50 does not apply to gear", { field: "code", message: "Промокод PORTAL50 не действует на игровые предметы." }],
    [400, "promo code PORTAL50 does not apply to this game", { field: "code", message: "Промокод PORTAL50 не действует на эту игру." }],
    [400, "promo code X1 does not apply to this platform", { field: "code", message: "Промокод X1 не действует на предметы этой игры." }],
    [409, "item race-item is out of stock", { field: "item", message: "«AK-47 | Redline» закончился, пока вы оформляли заказ. Наличие обновлено — выберите другой предмет." }],
    [400, "additionalFields.tradeLink belongs to another account than account", { field: "tradeLink", message: "Трейд-ссылка принадлежит другому аккаунту, не этому SteamID64." }],
    [400, "email must be a valid e-mail address", { field: "email", message: "Проверьте e-mail: нужен адрес вида name@example.com." }],
    [400, "target.region is required", { field: "region", message: "Выберите регион получателя." }],
    [404, "item nope not found on platform 730", { field: "item", message: "Этого предмета больше нет в магазине. Выберите другой." }],
    [404, "package 10915001 is not an edition of game 620", { message: "Этой игры или издания больше нет в магазине. Обновите страницу." }],
    [409, "game 999990 is not released yet and cannot be bought", { message: "Игра ещё не вышла — купить её пока нельзя." }],
    [409, "game 999991 has no price yet and cannot be bought", { message: "Эта игра сейчас не продаётся." }],
    [401, "the bearer token has expired", { message: "Сеанс магазина истёк. Обновите страницу и попробуйте снова." }],
    [429, "too many requests", { message: "Слишком много попыток. Подождите минуту и попробуйте снова." }],
    [500, "internal error; quote request id abc when reporting it", { message: "Магазин не смог оформить заказ. Попробуйте ещё раз чуть позже. Ответ магазина: internal error; quote request id abc when reporting it" }],
    [400, "unknown field: amount", { message: "Ответ магазина: unknown field: amount" }],
    [null, "TypeError: Failed to fetch", { message: "Нет связи с магазином. Проверьте подключение и попробуйте снова." }],
  ] as const)("%s %s", (status, message, expected) => {
    expect(localizeApiError(status, message, ru, { regionName, itemTitle: "AK-47 | Redline" })).toEqual(expected);
  });

  it("falls back to the codes and the API's item name without context", () => {
    expect(localizeApiError(409, "game 620 cannot be gifted to region TR; it can be gifted to: RU, KZ", en)).toEqual({
      field: "region",
      message: "This game cannot be gifted to “TR”. Available: RU, KZ.",
    });
    expect(localizeApiError(409, "item awp-asiimov is out of stock", en)).toEqual({
      field: "item",
      message: "“awp-asiimov” sold out while you were checking out. Availability is updated — please choose another item.",
    });
  });
});
