import type { Page } from "@playwright/test";
import { expect, expectAccessible, screenshot, test } from "../fixtures";
import { countPosts } from "./checkout-support";

// Regions with their prices (issue 14): Cyberpunk 2077 (1091500) can be gifted to RU and KZ, is priced
// far below the store in BY and is not sold in AM (lib/demo/generate.ts pins these).

test.use({ locale: "ru-RU" });

const regionRows = (page: Page) => page.getByRole("region", { name: "Куда можно подарить" }).getByRole("row");
const regionSelect = (page: Page) => page.getByRole("combobox", { name: "Подарить в" });
const total = (page: Page) => page.getByRole("heading", { level: 2, name: /^Найден/ });
const cardTitles = (page: Page) => page.getByRole("region", { name: /Найден/ }).getByRole("heading", { level: 3 });

test("the game page shows, per region, the local price and whether it can be gifted there", async ({ page }) => {
  await page.goto("/games/1091500");
  await expect(regionRows(page).filter({ hasText: "Россия" })).toContainText(/1\s499,50\s₽.*Можно подарить/);
  await expect(regionRows(page).filter({ hasText: "Казахстан" })).toContainText(/(₸|KZT).*≈.*₽.*Можно подарить/);
  await expect(regionRows(page).filter({ hasText: "Беларусь" })).toContainText(/\$.*Нельзя: цена слишком отличается от нашей/);
  await expect(regionRows(page).filter({ hasText: "Армения" })).toContainText("Не продаётся в этом регионе");
  await expectAccessible(page);
});

// The table follows the one gift rule: a game not out yet, or without a price, cannot be gifted
// anywhere, as its buy box says, whatever its regional prices.
for (const { appId, title, why } of [
  { appId: 999990, title: "Пограничье пустоты", why: "Нельзя: ещё не вышла" },
  { appId: 999991, title: "Тихая гавань", why: "Нельзя: пока без цены" },
]) {
  test(`no region of ${title} (${appId}) says it can be gifted`, async ({ page }) => {
    await page.goto(`/games/${appId}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("link", { name: "Купить в подарок" })).toHaveCount(0);
    const rows = regionRows(page).filter({ has: page.getByRole("rowheader") });
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) await expect(row).toContainText(why);
    await expect(regionRows(page).filter({ hasText: "Можно подарить" })).toHaveCount(0);
  });
}

test("the catalog's region control filters to giftable games and is remembered", async ({ page }) => {
  await page.goto("/");
  const all = (await total(page).textContent()) ?? "";
  await regionSelect(page).selectOption({ label: "Беларусь" });
  await expect(page).toHaveURL(/[?&]region=BY(&|$)/);
  await expect(total(page)).not.toHaveText(all);
  await expect(cardTitles(page).filter({ hasText: "Portal 2" })).toHaveCount(1);
  await expect(cardTitles(page).filter({ hasText: "Cyberpunk 2077" })).toHaveCount(0);
  const filtered = (await total(page).textContent()) ?? "";

  // A fresh visit without the parameter comes back to the same region.
  await page.goto("/");
  await expect(page).toHaveURL(/[?&]region=BY(&|$)/);
  await expect(regionSelect(page)).toHaveValue("BY");
  await expect(total(page)).toHaveText(filtered);

  // "Any region" forgets it.
  await regionSelect(page).selectOption({ label: "Любой регион" });
  await expect(page).not.toHaveURL(/region=/);
  await page.goto("/");
  await expect(page).not.toHaveURL(/region=/);
  await expect(total(page)).toHaveText(all);
});

// The gift form marks the regions the chosen edition cannot go to, and says why as soon as one is
// chosen, in the words the store's 409 would use: nothing waits for the submit.
test("the gift form marks the regions it cannot go to and says why at once @phone", async ({ page }) => {
  const orders = countPosts(page, "/api/v1/gifts/verify");
  await page.goto("/games/1091500");
  const select = page.getByRole("combobox", { name: "Регион получателя" });
  await expect(select.getByRole("option")).toHaveText([
    "Выберите регион",
    "Россия",
    "Казахстан",
    "Беларусь — нельзя: цена далека от нашей",
    "Армения — нельзя: не продаётся",
  ]);

  await select.selectOption("AM");
  await expect(select).toHaveAttribute("aria-invalid", "true");
  await expect(select).toHaveAccessibleDescription(/Это издание не продаётся в регионе «Армения», поэтому подарить его туда нельзя/);
  await expect(page.getByText("Это издание не продаётся в регионе «Армения»", { exact: false })).toBeVisible();
  await screenshot(page, "gift-form-region-refused");

  await select.selectOption("BY");
  await expect(select).toHaveAccessibleDescription(/В регионе «Беларусь» цена этой игры слишком отличается от нашей/);

  await select.selectOption("KZ");
  await expect(select).not.toHaveAttribute("aria-invalid");
  await expect(page.getByText("поэтому подарить", { exact: false })).toHaveCount(0);
  await expectAccessible(page);
  expect(orders.count).toBe(0);
});

test.describe("in English", () => {
  test.use({ locale: "en-US" });

  test("the gift form marks refused regions in English", async ({ page }) => {
    await page.goto("/games/1091500");
    const select = page.getByRole("combobox", { name: "Recipient's region" });
    await expect(select.getByRole("option")).toHaveText([
      "Choose a region",
      "Russia",
      "Kazakhstan",
      "Belarus — no: price too far from ours",
      "Armenia — no: not sold there",
    ]);
    await select.selectOption("BY");
    await expect(select).toHaveAccessibleDescription(/This game's price in “Belarus” differs too much from ours/);
  });
});
