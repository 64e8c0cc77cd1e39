import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "../fixtures";
import { countPosts, expectNoHorizontalScroll, intentIdFromSummary, money } from "./checkout-support";

// The gear page: Counter-Strike 2 (730) has ak47-redline (1 250 ₽, 25 in stock) and awp-asiimov
// (out of stock); Dota 2 (570) has arcana-juggernaut (2 499 ₽). Fee 5 %, added on top (gear is always
// `excluded`), and the list shows the price paid: lib/money.ts quote(price, "excluded", 500).

const ACCOUNT = "76561198000000001"; // account id 39734273
const TRADE_LINK = "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12";
const GEAR = "/api/v1/gear";

const formAlert = (page: Page) => page.getByRole("main").getByRole("alert");
const submit = (page: Page) => page.getByRole("button", { name: "Отложить предмет и оформить заказ" }).click();

async function fillAccount(page: Page, tradeLink = TRADE_LINK) {
  await page.getByLabel("SteamID64 аккаунта").fill(ACCOUNT);
  await page.getByLabel("Трейд-ссылка").fill(tradeLink);
  await page.getByLabel("E-mail для чека").fill("gamer@example.com");
}

test.describe("gear purchase (ru)", () => {
  test.use({ locale: "ru-RU" });

  test("buys an item: price and availability in the list, then the amount and the reservation", async ({ page, dbQuery }) => {
    await page.goto("/gear");
    await expect(page.getByRole("heading", { level: 1, name: "Игровые предметы" })).toBeVisible();
    await expect(page.getByRole("radio", { name: "Counter-Strike 2" })).toBeChecked();
    const redline = page.getByRole("radio", { name: /^AK-47 \| Redline \(Field-Tested\)/ });
    await expect(redline).toBeEnabled();
    // The price paid, fee on top: the summary's total below.
    await expect(redline).toHaveAccessibleName(/1\s312,50\s₽$/);
    await expectAccessible(page, { allRules: true });

    await redline.check();
    await fillAccount(page);
    await expect(page.getByText("✓ Трейд-ссылка принадлежит этому аккаунту.")).toBeVisible();
    await submit(page);

    const summary = page.getByRole("region", { name: "Заказ оформлен — осталось оплатить" });
    await expect(summary).toContainText(`AK-47 | Redline (Field-Tested) для аккаунта ${ACCOUNT}`);
    await expect(summary.getByRole("term")).toHaveText(["Цена", "Комиссия сервиса", "К оплате"]);
    await expect(summary.getByRole("definition")).toHaveText([money("1 250 ₽"), money("62,50 ₽"), money("1 312,50 ₽")]);
    await expect(summary).toContainText(/Предмет отложен для вас до (\d{1,2} [а-я]+ в )?\d\d:\d\d (MSK|GMT\+3)/);
    const intentId = await intentIdFromSummary(page, "Перейти к оплате");
    const [intent] = await dbQuery(
      `SELECT i.kind, i.status, i.account, i.trade_link, i.email, i.payment_amount, g.item
       FROM intents i JOIN gear_items g ON g.id = i.gear_item_id WHERE i.id = $1`,
      [intentId],
    );
    expect(intent).toEqual({
      kind: "gear",
      status: "requires_payment",
      account: ACCOUNT,
      trade_link: TRADE_LINK,
      email: "gamer@example.com",
      payment_amount: 131250,
      item: "ak47-redline",
    });
    await expectAccessible(page, { allRules: true });

    // Back to the form: the list shows the unit this order holds as taken.
    const [stock] = await dbQuery<{ available: number }>(
      `SELECT stock - (SELECT count(*)::int FROM intents i WHERE i.gear_item_id = g.id AND i.status = 'requires_payment' AND i.expires_at > now()) AS available
       FROM gear_items g WHERE item = 'ak47-redline'`,
    );
    await page.getByRole("button", { name: "Оформить ещё один заказ" }).click();
    await expect(page.getByRole("radio", { name: /^AK-47 \| Redline/ })).toHaveAccessibleName(
      new RegExp(`${stock!.available} шт\\. в наличии`),
    );
  });

  test("Back from the payment page finds the order and what was typed", async ({ page }) => {
    await page.goto("/gear");
    await page.getByRole("radio", { name: /^Sticker Capsule 2/ }).check();
    await fillAccount(page);
    await submit(page);
    const summary = page.getByRole("region", { name: "Заказ оформлен — осталось оплатить" });
    const intentId = await intentIdFromSummary(page, "Перейти к оплате");
    await page.getByRole("link", { name: "Перейти к оплате" }).click();
    await expect(page).toHaveURL(new RegExp(`/pay/${intentId}$`));
    await page.goBack();
    await expect(summary).toContainText(`Sticker Capsule 2 для аккаунта ${ACCOUNT}`);
    await expect(summary).toContainText(intentId);

    // Another order keeps the account and its trade link, and clears the item.
    await page.getByRole("button", { name: "Оформить ещё один заказ" }).click();
    await expect(page.getByLabel("SteamID64 аккаунта")).toHaveValue(ACCOUNT);
    await expect(page.getByLabel("Трейд-ссылка")).toHaveValue(TRADE_LINK);
    await expect(page.getByRole("radio", { name: /^Sticker Capsule 2/ })).not.toBeChecked();
    await page.reload();
    await expect(summary).toHaveCount(0);
    await expect(page.getByLabel("SteamID64 аккаунта")).toHaveValue(ACCOUNT);
  });

  test("an item out of stock cannot be chosen", async ({ page }) => {
    await page.goto("/gear");
    const awp = page.getByRole("radio", { name: /^AWP \| Asiimov \(Field-Tested\)/ });
    await expect(awp).toBeDisabled();
    await expect(awp).toHaveAccessibleName(/Нет в наличии/);
  });

  test("a trade link of another account is caught before anything is sent", async ({ page }) => {
    await page.goto("/gear");
    const posts = countPosts(page, GEAR);
    await page.getByRole("radio", { name: /^AK-47 \| Redline/ }).check();
    await fillAccount(page, TRADE_LINK.replace("39734273", "39734274"));
    const link = page.getByLabel("Трейд-ссылка");
    await expect(link).toHaveAccessibleDescription(/Трейд-ссылка принадлежит другому аккаунту, не этому SteamID64\./);
    await submit(page);
    await expect(link).toBeFocused();
    await expect(link).toHaveAttribute("aria-invalid", "true");
    expect(posts.count).toBe(0);
    await expectAccessible(page, { allRules: true });

    await link.fill(TRADE_LINK);
    await expect(link).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("✓ Трейд-ссылка принадлежит этому аккаунту.")).toBeVisible();
  });

  test("refuses an empty form in place, by field, focus on the first", async ({ page }) => {
    await page.goto("/gear");
    await submit(page);
    const items = page.getByRole("group", { name: "Предмет" });
    await expect(items).toContainText("Выберите предмет.");
    await expect(page.getByRole("radio", { name: /^AK-47 \| Redline/ })).toBeFocused();
    await expect(page.getByLabel("SteamID64 аккаунта")).toHaveAccessibleDescription(/Укажите SteamID64 аккаунта\./);
    await expect(page.getByLabel("Трейд-ссылка")).toHaveAccessibleDescription(/Вставьте трейд-ссылку: по ней придёт предмет\./);
    await page.getByLabel("SteamID64 аккаунта").fill("12345");
    await expect(page.getByLabel("SteamID64 аккаунта")).toHaveAccessibleDescription(/SteamID64 — это 17 цифр, начинается с 7656119\./);
  });

  test("409: the last unit went to someone else meanwhile — a clear message and fresh availability", async ({ page, dbQuery }) => {
    const suffix = crypto.randomBytes(3).toString("hex");
    const title = `E2E Race Item ${suffix}`;
    await dbQuery("INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, $1, $2, 9900, 1)", [
      `e2e-race-${suffix}`,
      title,
    ]);
    try {
      await page.goto("/gear");
      await page.getByLabel("Найти по названию").fill(suffix);
      const radio = page.getByRole("radio", { name: new RegExp(title) });
      await expect(radio).toHaveAccessibleName(/1 шт\. в наличии/);
      await radio.check();
      await fillAccount(page);
      await dbQuery("UPDATE gear_items SET stock = 0 WHERE item = $1", [`e2e-race-${suffix}`]);
      await submit(page);

      await expect(page.getByRole("group", { name: "Предмет" })).toContainText(
        `«${title}» закончился, пока вы оформляли заказ. Наличие обновлено — выберите другой предмет.`,
      );
      await expect(formAlert(page)).toContainText("Заказ не оформлен");
      await expect(radio).toBeDisabled();
      await expect(radio).not.toBeChecked();
      await expect(radio).toHaveAccessibleName(/Нет в наличии/);
      await expectAccessible(page, { allRules: true });

      // Another item goes through; the shopper's entries were kept.
      await page.getByLabel("Найти по названию").fill("");
      await page.getByRole("radio", { name: /^Sticker Capsule 2/ }).check();
      await expect(page.getByText(`«${title}» закончился`)).toHaveCount(0);
      await submit(page);
      await expect(page.getByTestId("payment-amount")).toHaveText(money("103,95 ₽"));
    } finally {
      await dbQuery("DELETE FROM intents WHERE gear_item_id IN (SELECT id FROM gear_items WHERE item = $1)", [`e2e-race-${suffix}`]);
      await dbQuery("DELETE FROM gear_items WHERE item = $1", [`e2e-race-${suffix}`]);
    }
  });

  test("promo codes: applied, or refused beside the field", async ({ page }) => {
    await page.goto("/gear");
    await page.getByRole("radio", { name: /^Sticker Capsule 2/ }).check();
    await fillAccount(page);
    const code = page.getByLabel(/Промокод/);
    await code.fill("PORTAL50");
    await submit(page);
    await expect(code).toHaveAccessibleDescription(/Промокод PORTAL50 не действует на игровые предметы\./);
    await expect(code).toBeFocused();
    await code.fill("gear15");
    await submit(page);
    const summary = page.getByRole("region", { name: "Заказ оформлен — осталось оплатить" });
    // 15 % off 99 ₽ is 14,85 ₽; 5 % of the 84,15 ₽ left, halves up, is 4,21 ₽.
    await expect(summary.getByRole("term")).toHaveText(["Цена", "Скидка по промокоду GEAR15", "Комиссия сервиса", "К оплате"]);
    await expect(summary.getByRole("definition")).toHaveText([money("99 ₽"), money("−14,85 ₽"), money("4,21 ₽"), money("88,36 ₽")]);
  });

  test("another game's items, also by a link", async ({ page }) => {
    await page.goto("/gear");
    await page.getByRole("radio", { name: "Dota 2" }).check();
    await expect(page.getByRole("radio", { name: /^Bladeform Legacy \(Arcana\)/ })).toBeVisible();
    await expect(page.getByRole("radio", { name: /^AK-47/ })).toHaveCount(0);
    await page.goto("/gear?platform=570");
    await expect(page.getByRole("radio", { name: "Dota 2" })).toBeChecked();
    await expect(page.getByRole("radio", { name: /^Bladeform Legacy \(Arcana\)/ })).toHaveAccessibleName(/2\s623,95\s₽$/);
  });

  test("works from the keyboard alone", async ({ page }) => {
    await page.goto("/gear");
    await page.getByRole("radio", { name: "Counter-Strike 2" }).focus();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Найти по названию")).toBeFocused();
    await page.keyboard.type("redline");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await expect(page.getByRole("radio", { name: /^AK-47 \| Redline/ })).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("SteamID64 аккаунта")).toBeFocused();
    await page.keyboard.type(ACCOUNT);
    await page.keyboard.press("Tab");
    await page.keyboard.type(TRADE_LINK);
    await page.keyboard.press("Tab");
    await page.keyboard.type("gamer@example.com");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("payment-amount")).toHaveText(money("1 312,50 ₽"));
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("fits the width, errors and result included", async ({ page }) => {
      await page.goto("/gear");
      await expectNoHorizontalScroll(page);
      await submit(page);
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, { allRules: true });
      await page.getByRole("radio", { name: /^Sticker Capsule 2/ }).check();
      await fillAccount(page);
      await submit(page);
      await expect(page.getByTestId("payment-amount")).toBeVisible();
      await expectNoHorizontalScroll(page);
    });
  });
});

test.describe("gear purchase (en)", () => {
  test.use({ locale: "en-US" });

  test("speaks the shopper's language", async ({ page }) => {
    await page.goto("/gear");
    await expect(page.getByRole("heading", { level: 1, name: "In-game items" })).toBeVisible();
    await expect(page.getByRole("radio", { name: /^AWP \| Asiimov/ })).toHaveAccessibleName(/Out of stock/);
    await page.getByRole("radio", { name: /^AK-47 \| Redline/ }).check();
    await page.getByLabel("Account SteamID64").fill(ACCOUNT);
    await page.getByLabel("Trade link").fill(TRADE_LINK.replace("39734273", "39734274"));
    await expect(page.getByLabel("Trade link")).toHaveAccessibleDescription(
      /This trade link belongs to another account, not to this SteamID64\./,
    );
    await expectAccessible(page, { allRules: true });
  });
});
