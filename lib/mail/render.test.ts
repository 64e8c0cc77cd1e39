import { describe, expect, it } from "vitest";
import { intlLocale, LOCALES } from "@/lib/i18n/config";
import { formatRub } from "@/lib/money";
import { INTENT_MAIL_KINDS as MAIL_KINDS } from "./kinds";
import { renderIntentMail, type IntentMailData } from "./render";

const intentId = "0b9f6f7e-3c1a-4d2b-9e8f-1a2b3c4d5e6f";
const orderUrl = `https://store.example.com/orders/${intentId}?t=${"A".repeat(43)}`;

const gift = (over: Partial<IntentMailData> = {}): IntentMailData => ({
  kind: "receipt",
  locale: "ru",
  intentId,
  email: "gamer@example.com",
  gameTitle: "Portal 2",
  item: { kind: "gift", edition: "Portal 2 Deluxe", region: "KZ", inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG" },
  amounts: { price: 139900, discount: 13990, promoCode: "WELCOME10", fee: 6296, feeMode: "excluded", total: 132206 },
  paidAt: new Date("2026-05-12T11:05:00Z"),
  orderUrl,
  ...over,
});

const gear = (over: Partial<IntentMailData> = {}): IntentMailData =>
  gift({
    gameTitle: "Counter-Strike 2",
    item: { kind: "gear", title: "AK-47 | Redline", account: "76561198000000001" },
    amounts: { price: 12345, discount: 0, promoCode: null, fee: 617, feeMode: "excluded", total: 12962 },
    ...over,
  });

const rub = (kopecks: number, locale: "ru" | "en") => formatRub(kopecks, intlLocale(locale));

describe("intent mail", () => {
  for (const locale of LOCALES) {
    for (const kind of MAIL_KINDS) {
      it(`${kind} in ${locale}: a subject, an HTML part and a text part with the amounts and the order link`, async () => {
        const m = await renderIntentMail(gift({ kind, locale }));
        expect(m.subject.length).toBeGreaterThan(5);
        expect(m.subject).toContain("Portal 2");
        expect(m.html).toMatch(new RegExp(`^<!DOCTYPE html.*<html[^>]* lang="${locale}"`, "s"));
        expect(m.html).toContain(`href="${orderUrl}"`);
        expect(m.text).toContain(orderUrl);
        expect(m.text).not.toMatch(/<[a-z]/i);
        for (const part of [m.html, m.text]) {
          expect(part).toContain(rub(139900, locale));
          expect(part).toContain(`−${rub(13990, locale)}`);
          expect(part).toContain(rub(6296, locale));
          expect(part).toContain(rub(132206, locale));
          expect(part).toContain("WELCOME10");
          expect(part).toContain(intentId);
        }
      });
    }
  }

  it("a Russian receipt says what was bought, for whom and how the amount came about, in Russian", async () => {
    const { subject, text } = await renderIntentMail(gift());
    expect(subject).toBe(`Чек: Portal 2 — ${rub(132206, "ru")}`);
    expect(text).toContain("Подарок другу: Portal 2");
    expect(text).toContain("Издание: Portal 2 Deluxe");
    expect(text).toContain("Ссылка-приглашение друга: https://s.team/p/fhgc-rdqr/NQVGTQPG");
    expect(text).toContain("Регион получателя: Казахстан");
    expect(text).toMatch(/Цена\s+1\s399\s₽/u);
    expect(text).toMatch(/Скидка по промокоду WELCOME10\s+−139,90\s₽/u);
    expect(text).toMatch(/Комиссия сервиса\s+62,96\s₽/u);
    expect(text).toMatch(/Оплачено\s+1\s322,06\s₽/u);
    expect(text).toContain("12 мая");
  });

  it("an English receipt for gear names the item, the game and the SteamID64, and has no discount row without a code", async () => {
    const { subject, text, html } = await renderIntentMail(gear({ locale: "en" }));
    expect(subject).toBe(`Receipt: AK-47 | Redline — ${rub(12962, "en")}`);
    expect(text).toContain("AK-47 | Redline for Counter-Strike 2");
    expect(text).toContain("Steam account (SteamID64): 76561198000000001");
    expect(text).toMatch(/Price\s+₽123\.45/u);
    expect(text).toMatch(/Service fee\s+₽6\.17/u);
    expect(text).toMatch(/Paid\s+₽129\.62/u);
    expect(text).not.toContain("Promo code");
    expect(html).not.toContain("Promo code");
  });

  it("a fee carved out of the price is shown under the total, not added to it", async () => {
    const { text } = await renderIntentMail(
      gift({ locale: "en", amounts: { price: 39900, discount: 0, promoCode: null, fee: 1900, feeMode: "included", total: 39900 } }),
    );
    expect(text).not.toContain("Service fee");
    expect(text).toMatch(/including the service fee\s+₽19/u);
  });

  it("refund messages state the amount returned", async () => {
    const ru = await renderIntentMail(gift({ kind: "delivery_failed_refunded" }));
    expect(ru.text).toContain(`вернули вам ${rub(132206, "ru")}`);
    expect(ru.text).toMatch(/Возвращено\s+1\s322,06\s₽/u);
    const en = await renderIntentMail(gift({ kind: "refunded", locale: "en" }));
    expect(en.text).toMatch(/Returned\s+₽1,322\.06/u);
  });

  it("escapes what the shopper or the catalog wrote", async () => {
    const { html } = await renderIntentMail(gift({ gameTitle: `<img src=x onerror="alert(1)">` }));
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x");
  });
});
