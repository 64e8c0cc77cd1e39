import { expect, test } from "../fixtures";
import { countPosts, money } from "./checkout-support";

// Issue 14, "Before the shopper pays": the price before the order, one all-in price, focus, free
// games and sorting. Portal 2 (620) costs 399 ₽; the store's own pages include the 5 % fee in it.

const INVITE = "https://s.team/p/fhgc-rdqr/NQVGTQPG";

test.describe("before the shopper pays (ru)", () => {
  test.use({ locale: "ru-RU" });

  test("Apply prices the promo code before the order exists", async ({ page }) => {
    const orders = countPosts(page, "/api/v1/gifts/verify");
    await page.goto("/games/620");
    const total = page.getByTestId("quote-amount");
    await expect(total).toHaveText(money("399 ₽"));
    await page.getByLabel(/Промокод/).fill("welcome10");
    await page.getByRole("button", { name: "Применить" }).click();
    await expect(total).toHaveText(money("359,10 ₽"));
    await expect(page.getByTestId("quote")).toContainText("Промокод WELCOME10 применён");
    // A wrong code is said at the field, and the price goes back to the one without it.
    await page.getByLabel(/Промокод/).fill("NOPE42");
    await page.getByRole("button", { name: "Применить" }).click();
    await expect(page.getByText("Промокода NOPE42 нет", { exact: false })).toBeVisible();
    await expect(total).toHaveText(money("399 ₽"));
    expect(orders.count).toBe(0);
  });

  test("the catalog card's price is the payment page's total", async ({ page }) => {
    await page.goto("/?q=portal+2");
    const card = page.getByRole("link", { name: /Portal 2/ }).first();
    const cardPrice = (await card.getByText(/₽/).first().innerText()).trim();
    await card.click();
    await page.getByLabel("Ссылка-приглашение друга").fill(INVITE);
    await page.getByRole("combobox", { name: "Регион получателя" }).selectOption({ label: "Казахстан" });
    await page.getByLabel("E-mail для чека").fill("gamer@example.com");
    await expect(page.getByTestId("quote-amount")).toHaveText(money(cardPrice));
    await page.getByRole("button", { name: "Оформить подарок" }).click();
    await expect(page.getByTestId("payment-amount")).toHaveText(money(cardPrice));
    await page.getByRole("link", { name: "Перейти к оплате" }).click();
    await expect(page).toHaveURL(/\/pay\//);
    await expect(page.getByTestId("payment-amount")).toHaveText(money(cardPrice));
    // One word for the fee, and a breakdown that adds up: the included fee is not a line to add.
    await expect(page.getByRole("main")).not.toContainText("Комиссия магазина");
  });

  test("a catalog card shows a focus ring, and Buy as a gift moves focus to the form", async ({ page }, info) => {
    await page.goto("/");
    const card = page.locator("section[aria-labelledby=catalog-results] li a").first();
    await page.keyboard.press("Tab");
    await card.focus();
    await expect(card).toBeFocused();
    // A frame over the whole card (cover included), since the list item clips anything outside it.
    const frame = await card.evaluate((el) => {
      const style = getComputedStyle(el, "::after");
      return { style: style.borderTopStyle, width: parseFloat(style.borderTopWidth), color: style.borderTopColor, z: style.zIndex };
    });
    expect(frame).toMatchObject({ style: "solid", z: "10" });
    expect(frame.width).toBeGreaterThanOrEqual(3);
    await card.screenshot({ path: info.outputPath("card-focus.png") });
    await card.screenshot({ path: ".data/e2e/card-focus.png" });

    await page.goto("/games/620");
    const buy = page.getByRole("link", { name: "Купить в подарок" });
    await page.keyboard.press("Tab");
    await buy.focus();
    // The button's colours ease in (transition-colors), the outline's among them: wait for the end.
    await expect(buy).toHaveCSS("outline-width", "3px");
    await expect(buy).toHaveCSS("outline-color", "rgb(255, 255, 255)");
    await page.screenshot({
      path: ".data/e2e/buy-focus.png",
      clip: {
        ...(await buy.boundingBox())!,
        x: (await buy.boundingBox())!.x - 8,
        y: (await buy.boundingBox())!.y - 8,
        width: (await buy.boundingBox())!.width + 16,
        height: (await buy.boundingBox())!.height + 16,
      },
    });
    await page.keyboard.press("Enter");
    await expect(page.locator("#checkout")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Ссылка-приглашение друга")).toBeFocused();
  });

  test("a free-to-play game says free and leads to its gear", async ({ page }) => {
    await page.goto("/?q=counter-strike+2");
    const card = page.getByRole("link", { name: /Counter-Strike 2/ }).first();
    await expect(card).toContainText("Бесплатно");
    await expect(card).toHaveAttribute("href", "/gear?platform=730");
    await card.click();
    await expect(page).toHaveURL(/\/gear\?platform=730/);
    await expect(page.getByRole("radio", { name: "Counter-Strike 2" })).toBeChecked();
  });

  test("sorting changes the order and is in the URL", async ({ page }) => {
    await page.goto("/");
    const titles = () => page.locator("section[aria-labelledby=catalog-results] li a h3").allInnerTexts();
    const popular = await titles();
    await page.getByRole("combobox", { name: "Порядок" }).selectOption({ label: "Сначала дешёвые" });
    await expect(page).toHaveURL(/[?&]sort=price/);
    await expect.poll(titles).not.toEqual(popular);
    await page.reload();
    await expect(page.getByRole("combobox", { name: "Порядок" })).toHaveValue("price");
    await page.goBack();
    await expect(page).not.toHaveURL(/sort=/);
  });
});
