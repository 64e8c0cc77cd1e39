import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "../fixtures";

// The catalog (home page) as a shopper uses it. Demo anchors (README): 1091500 Cyberpunk 2077 50 % off,
// 620 Portal 2 399 ₽, 999990 Hollow Frontier coming soon, 999991 Silent Harbor / «Тихая гавань» no price.
// Games that cannot be bought yet come after the others in every order, so never on an unsearched first page.

test.use({ locale: "ru-RU" });

const searchbox = (page: Page) => page.getByRole("searchbox", { name: "Поиск игр" });
const genreSelect = (page: Page) => page.getByRole("combobox", { name: "Жанр" });
const results = (page: Page) => page.getByRole("region", { name: /Найден|Загрузка|Результаты|found|Loading|Results/ });
const cards = (page: Page) =>
  results(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 3 }) });
const total = (page: Page) => page.getByRole("heading", { level: 2, name: /^Найден/ });
const collection = (page: Page) => page.getByRole("navigation", { name: "Подборка" });

async function totalCount(page: Page): Promise<number> {
  const text = (await total(page).textContent()) ?? "";
  return Number(/Найден[оа]\s+([\d\s\u00a0\u202f]+)\s+игр/.exec(text)?.[1]?.replace(/\D/g, ""));
}

test("the first page comes rendered from the server, with the total, and the browser does not fetch it again", async ({ page }) => {
  const catalogCalls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/gifts/catalog")) catalogCalls.push(r.url());
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Игры в подарок" })).toBeVisible();
  await expect(total(page)).toBeVisible();
  expect(await totalCount(page)).toBeGreaterThan(24);
  await expect(cards(page)).toHaveCount(24);
  const cyberpunk = cards(page).filter({ hasText: "Cyberpunk 2077" });
  await expect(cyberpunk).toContainText("−50%");
  await expect(cyberpunk.locator("del")).toHaveText("2 999 ₽");
  await expect(cyberpunk).toContainText("1 499,50 ₽");
  await expect(cards(page).filter({ hasText: "Portal 2" })).toContainText("399 ₽");
  await expect(cards(page).filter({ hasText: "Пограничье пустоты" })).toHaveCount(0);
  await expect(cards(page).filter({ hasText: "Тихая гавань" })).toHaveCount(0);
  await expect(cards(page).filter({ hasText: /Скоро|Цены пока нет/ })).toHaveCount(0);
  // Hydrated and idle for a while: still no request for the page the server already rendered.
  await page.waitForLoadState("load");
  await page.waitForTimeout(1500);
  expect(catalogCalls).toEqual([]);
  await expectAccessible(page, { allRules: true });
});

test("filtering by genre updates the URL, the cards and the total", async ({ page }) => {
  await page.goto("/");
  const all = await totalCount(page);
  await genreSelect(page).selectOption({ label: "Хоррор" });
  await expect(page).toHaveURL(/\/\?genre=horror$/);
  // «Тихая гавань» has no price yet: a horror game one can buy comes first.
  await expect(cards(page).first()).toContainText("Хоррор");
  await expect(cards(page).first()).toContainText("₽");
  await expect(cards(page).first()).not.toContainText("Тихая гавань");
  await expect.poll(() => totalCount(page)).toBeLessThan(all);
  for (const card of await cards(page).all()) await expect(card).toContainText("Хоррор");
});

test("a featured category shows only its games and marks itself current", async ({ page }) => {
  await page.goto("/");
  await collection(page).getByRole("link", { name: "Скидки" }).click();
  await expect(page).toHaveURL(/\/\?category=specials$/);
  await expect(collection(page).getByRole("link", { name: "Скидки" })).toHaveAttribute("aria-current", "true");
  await expect(cards(page).first()).toContainText("Cyberpunk 2077");
  // Specials are exactly the discounted games: every card shows a struck full price.
  for (const card of await cards(page).all()) await expect(card.locator("del")).toHaveCount(1);

  await collection(page).getByRole("link", { name: "Скоро выйдут" }).click();
  await expect(page).toHaveURL(/\/\?category=coming_soon$/);
  const hollow = cards(page).filter({ hasText: "Пограничье пустоты" });
  await expect(hollow).toContainText("Скоро");
  await expect(hollow).toContainText("Цены пока нет");
});

test("search as you type: the URL follows after a pause, stale requests are cancelled, Back leaves the search", async ({ page }) => {
  // Records which catalog requests the page itself aborted (their AbortSignal fired).
  await page.addInitScript(() => {
    const w = window as unknown as { __aborted: string[] };
    w.__aborted = [];
    const original = window.fetch;
    window.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/api/v1/gifts/catalog")) {
        init?.signal?.addEventListener("abort", () => w.__aborted.push(new URL(url, location.href).searchParams.get("query") ?? ""));
      }
      return original(input, init);
    };
  });
  await page.goto("/");
  // One filter change first, so the session's API token is in hand and the searches below go
  // straight to the network.
  await genreSelect(page).selectOption({ label: "Хоррор" });
  await expect(cards(page).first()).toContainText("Хоррор");
  await genreSelect(page).selectOption({ label: "Все жанры" });
  await expect(page).toHaveURL(/\/$/);
  const requested: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/gifts/catalog")) requested.push(new URL(r.url()).searchParams.get("query") ?? "");
  });
  // The first search answers slowly, so the next one makes it stale while it is still in flight.
  await page.route("**/api/v1/gifts/catalog?*query=%D1%82%D0%B8%D1%85*", async (route) => {
    if (!new URL(route.request().url()).searchParams.get("query")?.includes(" ")) await new Promise((r) => setTimeout(r, 1500));
    await route.continue().catch(() => {});
  });

  await searchbox(page).pressSequentially("тих");
  await expect(page).toHaveURL(/\?q=%D1%82%D0%B8%D1%85$/);
  await expect.poll(() => requested).toEqual(["тих"]);
  await searchbox(page).fill("тихая гавань");
  await expect(page).toHaveURL(/\?q=%D1%82%D0%B8%D1%85%D0%B0%D1%8F\+%D0%B3%D0%B0%D0%B2%D0%B0%D0%BD%D1%8C$/);
  // A search puts the best match first, priced or not.
  await expect(cards(page).first()).toContainText("Тихая гавань");
  await expect(cards(page).first()).toContainText("Цены пока нет");
  await expect.poll(() => totalCount(page)).toBeGreaterThanOrEqual(1);
  await expect(page).toHaveTitle("«тихая гавань» — поиск · GiftKey");
  // Debounced (no request for "т" or "ти"), and the slow request the newer search made stale was aborted.
  expect(requested).toEqual(["тих", "тихая гавань"]);
  expect(await page.evaluate(() => (window as unknown as { __aborted: string[] }).__aborted)).toEqual(["тих"]);

  // Refining the search replaced its history entry: one Back returns to the unsearched catalog.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(searchbox(page)).toHaveValue("");
  await expect(cards(page).first()).toContainText("Cyberpunk 2077");
  await page.goForward();
  await expect(searchbox(page)).toHaveValue("тихая гавань");
});

test("pagination moves through pages, and Back and Forward retrace them", async ({ page }) => {
  await page.goto("/?genre=action");
  const firstOnPage1 = await cards(page).first().textContent();
  const pager = page.getByRole("navigation", { name: "Страницы каталога" });
  await pager.getByRole("link", { name: /Вперёд/ }).click();
  await expect(page).toHaveURL(/\/\?genre=action&page=2$/);
  await expect(total(page)).toContainText("страница 2 из");
  await expect(cards(page).first()).not.toHaveText(firstOnPage1 ?? "");
  // Focus moves to the new page's results, not left on the pager.
  await expect(total(page)).toBeFocused();
  await pager.getByRole("link", { name: "Страница 3", exact: true }).click();
  await expect(page).toHaveURL(/\/\?genre=action&page=3$/);
  await expect(pager.getByRole("link", { name: "Страница 3", exact: true })).toHaveAttribute("aria-current", "page");

  await page.goBack();
  await expect(page).toHaveURL(/\/\?genre=action&page=2$/);
  await expect(total(page)).toContainText("страница 2 из");
  await page.goBack();
  await expect(page).toHaveURL(/\/\?genre=action$/);
  await expect(cards(page).first()).toHaveText(firstOnPage1 ?? "");
  await expect(genreSelect(page)).toHaveValue("action");
});

test("a shared link with UTM tags reproduces the view and keeps the tags", async ({ page }) => {
  await page.goto("/?q=portal&genre=Puzzle&category=top_sellers&utm_source=vk&utm_medium=post&utm_campaign=spring");
  await expect(searchbox(page)).toHaveValue("portal");
  await expect(genreSelect(page)).toHaveValue("puzzle");
  await expect(collection(page).getByRole("link", { name: "Лидеры продаж" })).toHaveAttribute("aria-current", "true");
  // Search engines see the filtered page without the search and the tags.
  expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(/\/\?genre=puzzle&category=top_sellers$/);
  await expect(cards(page).first()).toContainText("Portal 2");
  await collection(page).getByRole("link", { name: "Все игры" }).click();
  await expect(page).toHaveURL(/\/\?q=portal&genre=puzzle&utm_source=vk&utm_medium=post&utm_campaign=spring$/);
});

test("invalid parameters fall back to their defaults without dropping the valid ones", async ({ page }) => {
  const response = await page.goto("/?page=abc&category=bestsellers&genre=rpg&limit=9999");
  expect(response?.status()).toBe(200);
  await expect(genreSelect(page)).toHaveValue("rpg");
  await expect(collection(page).getByRole("link", { name: "Все игры" })).toHaveAttribute("aria-current", "true");
  await expect(cards(page)).toHaveCount(24);
});

test("an empty result explains itself and offers the way back", async ({ page }) => {
  await page.goto("/?genre=horror");
  await searchbox(page).fill("zzqxw");
  await expect(page.getByText("Ничего не нашлось")).toBeVisible();
  await expect(page.getByText("По запросу «zzqxw» игр нет")).toBeVisible();
  await expectAccessible(page, { allRules: true });
  await page.getByRole("link", { name: "Искать без «zzqxw»" }).click();
  await expect(page).toHaveURL(/\/\?genre=horror$/);
  await expect(cards(page).first()).toContainText("Хоррор");
  await searchbox(page).fill("zzqxw");
  await page.getByRole("link", { name: "Показать все игры" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(searchbox(page)).toHaveValue("");
  await expect(cards(page)).toHaveCount(24);
});

test("a page past the end says so and links to the last page", async ({ page }) => {
  await page.goto("/?genre=horror&page=999");
  await expect(page.getByText("Здесь игр уже нет")).toBeVisible();
  await page.getByRole("link", { name: "К последней странице" }).click();
  await expect(page).toHaveURL(/\/\?genre=horror&page=\d+$/);
  await expect(cards(page).first()).toBeVisible();
});

test("a failed load shows an error with a retry", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/");
  await page.route("**/api/v1/gifts/catalog?*", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ code: 503, message: "down" }) }),
  );
  await genreSelect(page).selectOption({ label: "Гонки" });
  const alert = page.getByRole("alert").filter({ hasText: "Не удалось загрузить игры" });
  // The query client retries a 5xx twice before it gives up.
  await expect(alert).toBeVisible({ timeout: 40_000 });
  await page.unroute("**/api/v1/gifts/catalog?*");
  await alert.getByRole("button", { name: "Повторить" }).click();
  await expect(cards(page).first()).toContainText("Гонки");
});

test("the language switch shows the store in English and back in Russian; prices stay in roubles", async ({ page }) => {
  await page.goto("/?category=specials");
  await page.getByRole("button", { name: "EN" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1, name: "Games as gifts" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: /games? found/ })).toBeVisible();
  await expect(page).toHaveURL(/\/\?category=specials$/);
  await expect(page.getByRole("link", { name: "Specials" })).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("button", { name: "EN" })).toHaveAttribute("aria-pressed", "true");
  await expect(cards(page).filter({ hasText: "Cyberpunk 2077" })).toContainText("₽1,499.50");
  await expectAccessible(page, { allRules: true });

  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByRole("button", { name: "RU" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  await expect(page.getByRole("heading", { level: 1, name: "Игры в подарок" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the language switch, the search form and the collection links still work", async ({ page }) => {
    await page.goto("/?genre=rpg");
    await page.getByRole("button", { name: "EN" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page).toHaveURL(/\/\?genre=rpg$/);
    await page.getByRole("link", { name: "Specials" }).click();
    await expect(page).toHaveURL(/\/\?genre=rpg&category=specials$/);
    await page.getByRole("searchbox", { name: "Search games" }).fill("portal");
    await page.getByRole("searchbox", { name: "Search games" }).press("Enter");
    await expect(page).toHaveURL(/\/\?genre=rpg&category=specials&q=portal$/);
    await expect(page.getByText("No games match “portal”")).toBeVisible();
    await page.getByRole("link", { name: "Show all games" }).click();
    await page.getByRole("searchbox", { name: "Search games" }).fill("portal");
    await page.getByRole("searchbox", { name: "Search games" }).press("Enter");
    await expect(page).toHaveURL(/\/\?q=portal$/);
    await expect(page.getByRole("heading", { level: 3 }).first()).toHaveText("Portal 2");
    await page.getByRole("button", { name: "RU" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  });
});

test.describe("an English browser", () => {
  test.use({ locale: "en-US" });
  test("gets English from Accept-Language", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("searchbox", { name: "Search games" })).toBeVisible();
  });
});

test("everything works by keyboard, with a skip link and visible focus", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Перейти к содержимому" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(searchbox(page)).toBeFocused();
  await page.keyboard.type("portal");
  await expect(page).toHaveURL(/\?q=portal$/);
  await page.keyboard.press("Tab");
  await expect(genreSelect(page)).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("combobox", { name: "Подарить в" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(collection(page).getByRole("link", { name: "Все игры" })).toBeFocused();
  await page.keyboard.press("Tab");
  const specials = collection(page).getByRole("link", { name: "Скидки" });
  await expect(specials).toBeFocused();
  // The focus ring is drawn (outline from :focus-visible), not suppressed.
  expect(await specials.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?q=portal&category=specials$/);
  await collection(page).getByRole("link", { name: "Все игры" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?q=portal$/);
  // The sort comes after the collection, on screen as in the Tab order.
  await collection(page).getByRole("link").last().focus();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("combobox", { name: "Порядок" })).toBeFocused();
  const portal = cards(page)
    .getByRole("link", { name: /Portal 2/ })
    .first();
  await portal.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/games\/620$/);
  await expect(page.getByRole("heading", { level: 1, name: "Portal 2" })).toBeVisible();
});

test("on a phone the catalog fits the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(cards(page).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(page.getByRole("navigation", { name: "Страницы каталога" }).getByRole("link", { name: /Вперёд/ })).toBeVisible();
});
