import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import type { Reason } from "@/lib/errors";
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
    [
      { ...gift, target: { ...gift.target, inviteUrl: "https://evil.example/p/x/y" } },
      "inviteUrl",
      "Это не ссылка-приглашение. Нужна ссылка вида https://s.team/p/fhgc-rdqr/NQVGTQPG.",
    ],
    [
      { ...gift, target: { ...gift.target, inviteUrl: `https://s.team/p/${"a".repeat(520)}` } },
      "inviteUrl",
      "Ссылка слишком длинная: это точно ссылка-приглашение?",
    ],
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
    [
      { ...gear, additionalFields: { tradeLink: "https://steamcommunity.com/id/me" } },
      "tradeLink",
      "Это не трейд-ссылка. Нужна ссылка вида https://steamcommunity.com/tradeoffer/new/?partner=…&token=….",
    ],
    [
      { ...gear, additionalFields: { tradeLink: LINK.replace("39734273", "39734274") } },
      "tradeLink",
      "Трейд-ссылка принадлежит другому аккаунту, не этому SteamID64.",
    ],
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

describe("localizeApiError: the API's refusals by reason, beside the field they are about", () => {
  const regionName = (code: string) => ({ RU: "Россия", KZ: "Казахстан", TR: "Турция" })[code] ?? code;
  const refusal = (status: number, reason: Reason | null, param?: string, message = "(the API's English, never read)") => ({
    status,
    reason,
    param,
    message,
  });
  const context = { regionName, giftRegions: ["RU"], region: "KZ", itemTitle: "AK-47 | Redline", code: "NOPE" };

  it.each([
    [
      refusal(409, "region_not_giftable", "target.region"),
      { field: "region", message: "Эту игру нельзя подарить в регион «Казахстан». Доступны: Россия." },
    ],
    [refusal(400, "promo_code_unknown", "code"), { field: "code", message: "Промокода NOPE нет. Проверьте, как он написан." }],
    [refusal(400, "promo_code_expired", "code"), { field: "code", message: "Срок действия промокода NOPE истёк." }],
    [refusal(400, "promo_code_not_yet_valid", "code"), { field: "code", message: "Промокод NOPE ещё не действует." }],
    [refusal(400, "promo_code_used_up", "code"), { field: "code", message: "Промокод NOPE уже использован максимальное число раз." }],
    [refusal(400, "promo_code_not_for_gifts", "code"), { field: "code", message: "Промокод NOPE не действует на подарки." }],
    [refusal(400, "promo_code_not_for_gear", "code"), { field: "code", message: "Промокод NOPE не действует на игровые предметы." }],
    [refusal(400, "promo_code_not_for_game", "code"), { field: "code", message: "Промокод NOPE не действует на эту игру." }],
    [refusal(400, "promo_code_not_for_platform", "code"), { field: "code", message: "Промокод NOPE не действует на предметы этой игры." }],
    [
      refusal(409, "out_of_stock", "item"),
      { field: "item", message: "«AK-47 | Redline» закончился, пока вы оформляли заказ. Наличие обновлено — выберите другой предмет." },
    ],
    [
      refusal(400, "trade_link_mismatch", "additionalFields.tradeLink"),
      { field: "tradeLink", message: "Трейд-ссылка принадлежит другому аккаунту, не этому SteamID64." },
    ],
    [refusal(400, "invalid_field", "email"), { field: "email", message: "Проверьте e-mail: нужен адрес вида name@example.com." }],
    [refusal(400, "invalid_field", "target.region"), { field: "region", message: "Выберите регион из списка." }],
    [refusal(404, "item_not_found", "item"), { field: "item", message: "Этого предмета больше нет в магазине. Выберите другой." }],
    [
      refusal(404, "edition_not_found", "target.packageId"),
      { field: "packageId", message: "Этого издания больше нет в магазине. Обновите страницу." },
    ],
    [refusal(404, "game_not_found", "item"), { message: "Этой игры больше нет в магазине. Обновите страницу." }],
    [refusal(409, "game_not_released"), { message: "Игра ещё не вышла — купить её пока нельзя." }],
    [refusal(409, "game_not_priced"), { message: "Эта игра сейчас не продаётся." }],
    [refusal(401, "token_expired"), { message: "Сеанс магазина истёк. Обновите страницу и попробуйте снова." }],
    [refusal(429, "rate_limited"), { message: "Слишком много попыток. Подождите минуту и попробуйте снова." }],
    [refusal(500, "internal_error"), { message: "Магазин не смог выполнить запрос. Попробуйте ещё раз чуть позже." }],
    [refusal(400, "some_newer_reason" as Reason, undefined, "a newer refusal"), { message: "Ответ магазина: a newer refusal" }],
    [
      refusal(502, null, undefined, "bad gateway"),
      { message: "Магазин не смог оформить заказ. Попробуйте ещё раз чуть позже. Ответ магазина: bad gateway" },
    ],
    [null, { message: "Нет связи с магазином. Проверьте подключение и попробуйте снова." }],
  ] as const)("%j", (answer, expected) => {
    expect(localizeApiError(answer, ru, context)).toEqual(expected);
  });

  it("never reads the message: two refusals that differ only in their English read the same", () => {
    const a = localizeApiError(refusal(409, "out_of_stock", "item", "item x is out of stock"), en, context);
    const b = localizeApiError(refusal(409, "out_of_stock", "item", "completely reworded"), en, context);
    expect(a).toEqual(b);
  });

  it("takes the server's facts over the page's: the regions allowed now, the code as read", () => {
    const answer = { ...refusal(409, "region_not_giftable", "target.region"), details: { region: "KZ", allowedRegions: ["TR"] } };
    expect(localizeApiError(answer, ru, context).message).toBe("Эту игру нельзя подарить в регион «Казахстан». Доступны: Турция.");
    const promo = { ...refusal(400, "promo_code_unknown", "code"), details: { code: "TYPED" } };
    expect(localizeApiError(promo, ru, context).message).toBe("Промокода TYPED нет. Проверьте, как он написан.");
  });

  it("falls back to the codes without a region-name function", () => {
    expect(localizeApiError(refusal(409, "region_not_giftable", "target.region"), en, { region: "TR", giftRegions: ["RU", "KZ"] })).toEqual(
      {
        field: "region",
        message: "This game cannot be gifted to “TR”. Available: RU, KZ.",
      },
    );
  });
});
