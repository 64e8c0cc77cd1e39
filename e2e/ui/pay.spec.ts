import { expect, expectAccessible, screenshot, test } from "../fixtures";
import { createGearIntent } from "./checkout-support";

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

test("declining by keyboard cancels the order and says nothing was charged", async ({ page, request, baseURL }) => {
  const intentId = await createGearIntent(request, baseURL!);
  await page.goto(`/pay/${intentId}`);
  await page.getByRole("button", { name: "Отказаться от оплаты" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/result$`));
  await expect(page.getByRole("heading", { name: "Оплата отменена" })).toBeVisible();
  await expect(page.getByText("Деньги не списаны", { exact: false })).toBeVisible();
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
});

test("an unknown payment link says so", async ({ page }) => {
  const response = await page.goto("/pay/00000000-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Платёж не найден" })).toBeVisible();
});
