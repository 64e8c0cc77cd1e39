import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "../fixtures";

// The game page (/games/[appId]) with the README's demo anchors.

test.use({ locale: "ru-RU" });

const editions = (page: Page) => page.getByRole("region", { name: "Издания" }).getByRole("row");

test("a game shows its description, genres, editions with prices, gift regions and the checkout", async ({ page }) => {
  const response = await page.goto("/games/620");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Portal 2 · GiftKey");
  await expect(page.getByRole("heading", { level: 1, name: "Portal 2" })).toBeVisible();
  await expect(page.getByText("Головоломка от первого лица о порталах")).toBeVisible();
  await expect(page.getByRole("link", { name: "Головоломки" })).toHaveAttribute("href", "/?genre=puzzle");
  await expect(editions(page).filter({ hasText: "Portal 2 + Soundtrack" })).toContainText("599 ₽");
  await expect(editions(page).filter({ hasText: "основное" })).toContainText("399 ₽");
  await expect(page.getByRole("region", { name: "Куда можно подарить" })).toContainText("Россия");
  await expect(page.getByRole("region", { name: "Куда можно подарить" })).toContainText("Казахстан");
  const product = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(product).toMatchObject({ "@type": "Product", name: "Portal 2", offers: { price: "399.00", priceCurrency: "RUB" } });
  await page.getByRole("link", { name: "Купить в подарок" }).click();
  await expect(page).toHaveURL(/\/games\/620#checkout$/);
  await expect(page.locator("#checkout")).toBeInViewport();
  await expectAccessible(page, { allRules: true });
});

test("a discounted game shows the percent, the struck full price and each edition's price", async ({ page }) => {
  await page.goto("/games/1091500");
  const main = page.getByRole("main");
  await expect(main.getByText("−50%").first()).toBeVisible();
  await expect(main.locator("del").first()).toHaveText("2 999 ₽");
  await expect(editions(page).filter({ hasText: "Ultimate Edition" })).toContainText("4 499 ₽");
  await expect(editions(page).filter({ hasText: "основное" })).toContainText("1 499,50 ₽");
});

test.describe("games that cannot be bought say why and offer no checkout", () => {
  for (const [appId, title, reason] of [
    ["999990", "Пограничье пустоты", "Игра ещё не вышла"],
    ["999991", "Тихая гавань", "У игры пока нет цены"],
  ] as const) {
    test(`${appId} ${title}`, async ({ page }) => {
      await page.goto(`/games/${appId}`);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(page.getByText(reason)).toBeVisible();
      await expect(page.getByRole("link", { name: "Купить в подарок" })).toHaveCount(0);
      await expect(page.locator("#checkout")).toHaveCount(0);
    });
  }
});

test("a free-to-play game says it is free and leads to its gear instead of a checkout", async ({ page }) => {
  await page.goto("/games/730");
  await expect(page.getByRole("heading", { level: 1, name: "Counter-Strike 2" })).toBeVisible();
  await expect(page.getByText("Бесплатно", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Игра бесплатная: дарить её не нужно.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Куда можно подарить" })).toHaveText(/Бесплатную игру дарить не нужно/);
  // Its edition says free as well, not "no price yet".
  const editions = page.getByRole("region", { name: "Издания" });
  await expect(editions.getByRole("row", { name: /Counter-Strike 2/ })).toContainText("Бесплатно");
  await expect(editions).not.toContainText("Цены пока нет");
  await expect(page.getByText("У игры пока нет цены")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Купить в подарок" })).toHaveCount(0);
  await expect(page.locator("#checkout")).toHaveCount(0);
  const gear = page.getByRole("link", { name: "Купить предметы для неё" });
  await expect(gear).toHaveAttribute("href", "/gear?platform=730");
  await expectAccessible(page, { allRules: true });
  await gear.click();
  await expect(page).toHaveURL(/\/gear\?platform=730$/);
  await expect(page.getByRole("radio", { name: "Counter-Strike 2" })).toBeChecked();
});

test("a shared game link carries Open Graph and Twitter card tags with the absolute share-card URL", async ({ page, request, baseURL }) => {
  await page.goto("/games/620?utm_source=tg&utm_medium=share");
  const meta = (selector: string) => page.locator(selector).first().getAttribute("content");
  expect(await meta('meta[property="og:title"]')).toBe("Portal 2");
  // The generated cover is SVG, which link previews do not show: they get its 1200x630 PNG twin.
  expect(await meta('meta[property="og:image"]')).toBe(`${baseURL}/covers/620.png`);
  expect(await meta('meta[property="og:image:width"]')).toBe("1200");
  expect(await meta('meta[property="og:image:height"]')).toBe("630");
  expect(await meta('meta[property="og:url"]')).toBe(`${baseURL}/games/620`);
  expect(await meta('meta[property="og:description"]')).toContain("Головоломка от первого лица");
  expect(await meta('meta[name="twitter:card"]')).toBe("summary_large_image");
  expect(await meta('meta[name="twitter:image"]')).toBe(`${baseURL}/covers/620.png`);

  // Link-preview bots do not run scripts: they get the tags in the <head> of the first response.
  for (const agent of ["facebookexternalhit/1.1", "Twitterbot/1.0", "TelegramBot (like TwitterBot)"]) {
    const html = await (await request.get("/games/620", { headers: { "User-Agent": agent } })).text();
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head, agent).toContain('<meta property="og:title" content="Portal 2"/>');
    expect(head, agent).toContain(`<meta property="og:image" content="${baseURL}/covers/620.png"/>`);
    expect(head, agent).toContain('<meta name="twitter:card" content="summary_large_image"/>');
  }
  const card = await request.get("/covers/620.png");
  expect(card.status()).toBe(200);
  expect(card.headers()["content-type"]).toBe("image/png");
});

test.describe("unknown and malformed game ids are a 404 with a way on", () => {
  for (const path of ["/games/123456789", "/games/abc", "/games/0620", "/games/99999999999"]) {
    test(path, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Игра не найдена" })).toBeVisible();
      await page.getByRole("searchbox", { name: "Найти игру в каталоге" }).fill("portal");
      await page.getByRole("button", { name: "Найти" }).click();
      await expect(page).toHaveURL(/\/\?q=portal$/);
      await expect(page.getByRole("searchbox", { name: "Поиск игр" })).toHaveValue("portal");
    });
  }
});

test("an unknown page is a 404 in the store's style", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Страница не найдена" })).toBeVisible();
  await page.getByRole("link", { name: "В каталог" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Игры в подарок" })).toBeVisible();
});

test("from a filtered catalog page to a game and Back again", async ({ page }) => {
  await page.goto("/?category=specials&page=2");
  const card = page
    .getByRole("region", { name: /Найден/ })
    .getByRole("link")
    .first();
  const title = (await card.getByRole("heading").textContent()) ?? "";
  await card.click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/\?category=specials&page=2$/);
  await expect(
    page
      .getByRole("region", { name: /Найден/ })
      .getByRole("heading", { level: 3 })
      .first(),
  ).toHaveText(title);
});

test.describe("in English", () => {
  test.use({ locale: "en-GB" });
  test("the game page speaks English and prices stay in roubles", async ({ page }) => {
    await page.goto("/games/1091500");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("link", { name: "Buy as a gift" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Editions" })).toContainText("₽4,499");
    await expect(page.getByRole("region", { name: "Where it can be gifted" })).toContainText("Kazakhstan");
    await expectAccessible(page, { allRules: true });
  });
});
