import { expect, expectAccessible, screenshot, test } from "../fixtures";
import { createGearIntent, createGiftIntent, expectNoHorizontalScroll } from "./checkout-support";

// The hosted payment page as a shopper uses it. Intents are created through the public API with a
// storefront session token, so the spec needs nothing but a running store (baseURL).

test.use({ locale: "ru-RU" });

test("a shopper sees the order and the sandbox mark, pays, and lands on the result page @phone", async ({ page, request, baseURL }) => {
  const intentId = await createGearIntent(request, baseURL!);
  await page.goto(`/pay/${intentId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Оплата заказа" })).toBeVisible();
  await expect(page.getByRole("note")).toContainText("Тестовый режим");
  await expect(page.getByRole("heading", { name: "Что вы покупаете" })).toBeVisible();
  await expect(page.getByText("Sticker Capsule 2")).toBeVisible();
  await expect(page.getByRole("timer")).toContainText(/Осталось: 1[45]:\d\d/);
  await expectAccessible(page, "the payment page");
  await screenshot(page, "pay");

  await page.getByRole("button", { name: /^Оплатить/ }).click();
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/result$`));
  await expect(page.getByRole("heading", { name: "Оплачено" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Оплатить/ })).toHaveCount(0);
  await expectAccessible(page, "the payment result page");
  await screenshot(page, "pay-result");
});

test("Decline asks first; by keyboard, Back to payment keeps the order, Yes cancels it and leads back to the items", async ({
  page,
  request,
  baseURL,
}) => {
  const intentId = await createGearIntent(request, baseURL!);
  await page.goto(`/pay/${intentId}`);
  await page.getByRole("link", { name: "Отказаться от оплаты" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/decline$`));
  await expect(page.getByRole("heading", { level: 1, name: "Отказаться от оплаты?" })).toBeVisible();
  await expect(page.getByText(/Заказ «Sticker Capsule 2» на 103,95\s₽ будет отменён/)).toBeVisible();
  await expectAccessible(page, { context: "the decline confirmation", allRules: true });
  await screenshot(page, "pay-decline");

  await page.getByRole("link", { name: "Вернуться к оплате" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}$`));
  await expect(page.getByRole("button", { name: /^Оплатить/ })).toBeVisible();

  await page.getByRole("link", { name: "Отказаться от оплаты" }).click();
  await page.getByRole("button", { name: "Да, отказаться" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/result$`));
  await expect(page.getByRole("heading", { name: "Оплата отменена" })).toBeVisible();
  await expect(page.getByText("Деньги не списаны", { exact: false })).toBeVisible();
  await expect(page.getByRole("link", { name: "Вернуться к игровым предметам" })).toHaveAttribute("href", "/gear?platform=730");
  await expect(page.getByRole("link", { name: "На главную GiftKey" })).toHaveAttribute("href", "/");
  await expectAccessible(page, { context: "the declined result", allRules: true });

  // Nothing left to decline: the confirmation hands over to the payment page, which says so.
  await page.goto(`/pay/${intentId}/decline`);
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}$`));
  await expect(page.getByRole("heading", { name: "Оплата отменена" })).toBeVisible();
});

test("a gift's payment page names the region; once expired it leads back to the game", async ({ page, request, baseURL, dbQuery }) => {
  const intentId = await createGiftIntent(request, baseURL!);
  await page.goto(`/pay/${intentId}`);
  await expect(page.getByText("Регион получателя: Казахстан")).toBeVisible();
  await expect(page.getByText("Регион получателя: KZ")).toHaveCount(0);
  // The friend the invite link https://s.team/p/fhgc-rdqr/… names, decoded, so a wrong link shows before paying.
  await expect(page.getByRole("listitem").filter({ hasText: "Аккаунт друга (SteamID64)" })).toHaveText(
    "Аккаунт друга (SteamID64): 76561198853767868",
  );

  await dbQuery("UPDATE intents SET expires_at = now() - interval '1 second' WHERE id = $1", [intentId]);
  await page.goto(`/pay/${intentId}/result`);
  await expect(page.getByRole("heading", { name: "Время на оплату истекло" })).toBeVisible();
  await expect(page.getByText("Регион получателя: Казахстан")).toBeVisible();
  await expect(page.getByRole("link", { name: "Вернуться к игре Portal 2" })).toHaveAttribute("href", "/games/620");
  await expect(page.getByRole("link", { name: "На главную GiftKey" })).toBeVisible();
  await expectAccessible(page, { context: "the expired result", allRules: true });
});

test.describe("in English", () => {
  test.use({ locale: "en-US" });

  test("the region and the way back read in English", async ({ page, request, baseURL }) => {
    const intentId = await createGiftIntent(request, baseURL!);
    await page.goto(`/pay/${intentId}`);
    await expect(page.getByText("Recipient's region: Kazakhstan")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Friend's account (SteamID64)" })).toHaveText(
      "Friend's account (SteamID64): 76561198853767868",
    );
    await page.getByRole("link", { name: "Decline payment" }).click();
    await page.getByRole("button", { name: "Yes, decline" }).click();
    await expect(page.getByRole("link", { name: "Back to Portal 2" })).toHaveAttribute("href", "/games/620");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test("the form still pays, on a phone-width screen", async ({ page, request, baseURL }) => {
    const intentId = await createGearIntent(request, baseURL!);
    await page.goto(`/pay/${intentId}`);
    await expect(page.getByText(/Осталось: 1[45]:\d\d/)).toBeVisible();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await page.getByRole("button", { name: /^Оплатить/ }).click();
    await expect(page.getByRole("heading", { name: "Оплачено" })).toBeVisible();
  });

  test("Decline asks on a page of its own, and Yes declines", async ({ page, request, baseURL }) => {
    const intentId = await createGiftIntent(request, baseURL!);
    await page.goto(`/pay/${intentId}`);
    await page.getByRole("link", { name: "Отказаться от оплаты" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Отказаться от оплаты?" })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.getByRole("button", { name: "Да, отказаться" }).click();
    await expect(page.getByRole("heading", { name: "Оплата отменена" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Вернуться к игре Portal 2" })).toBeVisible();
  });
});

test("an unknown payment link says so", async ({ page }) => {
  const response = await page.goto("/pay/00000000-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Платёж не найден" })).toBeVisible();
});
