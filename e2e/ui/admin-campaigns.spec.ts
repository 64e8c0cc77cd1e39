import { createStaff, signInAsStaff } from "../admin-support";
import { expect, expectAccessible, screenshot, test } from "../fixtures";
import { expectNoHorizontalScroll, money } from "./checkout-support";
import { formatRub } from "@/lib/money";

// A marketer builds a campaign link, a shopper arrives by it in a browser of their own, buys a gift
// and pays; the marketer's report counts the visit, the order and the payment with its revenue.
// Other roles get the 403 page, and the CSV export answers 401 / 403 on the server.

test.use({ locale: "ru-RU" });

test("a marketer builds a link, a visit through it buys, and the campaign report counts it @phone", async ({
  page,
  browser,
  baseURL,
  dbQuery,
}) => {
  test.setTimeout(90_000);
  const campaign = `e2e-${test.info().project.name}-${Date.now().toString(36)}`;
  const marketer = await createStaff("marketer");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await signInAsStaff(page, marketer, "/admin/campaigns/link");

  // The link builder: a game found by its title, the campaign's names.
  await expect(page.getByRole("heading", { level: 1, name: "Ссылка для кампании" })).toBeVisible();
  // A page elsewhere is refused by the server, with the field named.
  await page.getByRole("radio", { name: "Другая страница магазина" }).check();
  await page.getByLabel("Адрес страницы").fill("https://evil.example/games/620");
  await page.getByLabel("Источник (utm_source)").fill("e2e-mail");
  await page.getByLabel("Канал (utm_medium)").fill("email");
  await page.getByRole("button", { name: "Собрать ссылку" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Проверьте поля" })).toContainText("Нужна страница этого магазина");
  await expect(page.getByLabel("Адрес страницы")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("heading", { name: "Ссылка готова" })).toHaveCount(0);

  await page.getByRole("radio", { name: "Страница игры" }).check();
  await page.getByLabel("Игра: номер (app id) или название").fill("Portal 2");
  await page.getByLabel("Источник (utm_source)").fill("e2e-mail");
  await page.getByLabel("Канал (utm_medium)").fill("email");
  await page.getByLabel("Кампания (utm_campaign)").fill(campaign);
  await page.getByRole("button", { name: "Собрать ссылку" }).click();
  await expect(page.getByRole("heading", { name: "Ссылка готова" })).toBeVisible();
  const link = await page.getByLabel("Ссылка кампании").inputValue();
  expect(new URL(link).pathname).toBe("/games/620");
  expect(Object.fromEntries(new URL(link).searchParams)).toEqual({ utm_source: "e2e-mail", utm_medium: "email", utm_campaign: campaign });
  await page.getByRole("button", { name: "Скопировать" }).click();
  await expect(page.getByRole("status")).toHaveText("Скопировано");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expectAccessible(page, "the link builder");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-campaigns-link");

  // A shopper, in a browser of their own, follows the link, buys the gift and pays.
  const shopperContext = await browser.newContext({ locale: "ru-RU" });
  const shopper = await shopperContext.newPage();
  await shopper.goto(link);
  await shopper.getByLabel("Ссылка-приглашение друга").fill("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  await shopper.getByRole("combobox", { name: "Регион получателя" }).selectOption({ label: "Россия" });
  await shopper.getByLabel("E-mail для чека").fill("campaign-buyer@example.com");
  await shopper.getByRole("button", { name: "Оформить подарок" }).click();
  await shopper.getByRole("link", { name: "Перейти к оплате" }).click();
  await expect(shopper).toHaveURL(/\/pay\/[0-9a-f-]{36}$/);
  const intentId = /\/pay\/([0-9a-f-]{36})$/.exec(shopper.url())![1]!;
  await shopper.getByRole("button", { name: /^Оплатить/ }).click();
  await expect(shopper.getByRole("heading", { name: "Оплачено" })).toBeVisible();
  await shopperContext.close();
  const [intent] = await dbQuery<{ attribution: unknown; payment_amount: number; status: string }>(
    "SELECT attribution, payment_amount, status FROM intents WHERE id = $1",
    [intentId],
  );
  expect(intent).toMatchObject({ status: "paid", attribution: { utm_source: "e2e-mail", utm_medium: "email", utm_campaign: campaign } });
  const revenue = money(formatRub(intent!.payment_amount));

  // The report (the last 30 days by default): one visit, one order, one payment, and its revenue.
  await page.goto("/admin/campaigns");
  await expect(page.getByRole("heading", { level: 1, name: "Кампании" })).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: new RegExp(campaign) }) });
  await expect(row.getByRole("cell")).toHaveText([
    "e2e-mail",
    "email",
    campaign,
    "1",
    "1",
    "1",
    revenue,
    /^100\s?%$/,
    /^100\s?%$/,
    revenue,
    "0",
  ]);

  // That campaign alone: its totals, funnel and days.
  await row.getByRole("link", { name: new RegExp(campaign) }).click();
  await expect(page.getByText(`Только кампания: e2e-mail / email / ${campaign}.`)).toBeVisible();
  const totals = page.getByRole("region", { name: /^Итого за период/ });
  await expect(totals.getByRole("definition")).toHaveText(["1", "1", "1", /^100\s?%$/, /^100\s?%$/, revenue, money(formatRub(0)), revenue]);
  await expect(page.getByRole("list", { name: "Воронка" }).getByRole("listitem")).toHaveText([
    /Переходы\s*1 · 100\s?% от переходов/,
    /Заказы\s*1 · 100\s?% от переходов/,
    /Оплаты\s*1 · 100\s?% от переходов/,
  ]);
  await expect(page.getByRole("img", { name: "Переходы" })).toBeVisible();
  await expectAccessible(page, "the campaign report");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-campaigns-report");

  // The CSV of the same view, with the marketer's session.
  const csv = await page.request.get(`/admin/campaigns/export?source=e2e-mail&medium=email&campaign=${encodeURIComponent(campaign)}`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  const rub = (intent!.payment_amount / 100).toFixed(2);
  expect((await csv.text()).split("\r\n")[1]).toBe(`e2e-mail,email,${campaign},1,1,1,100.00,100.00,${rub},0,0.00,${rub},0`);
});

test("a day's campaigns beyond the limit are one row, which opens nothing @phone", async ({ page, dbQuery }) => {
  // A day long past, of this test's own: three campaigns kept apart, and the visits of the rest.
  const day = "2026-05-10";
  await dbQuery("DELETE FROM campaign_visits WHERE day = $1", [day]);
  await dbQuery(
    `INSERT INTO campaign_visits (day, source, medium, campaign, visits)
     VALUES ($1, 'vk', 'cpc', 'spring', 40), ($1, 'tg', 'social', 'launch', 25), ($1, 'mail', 'email', '', 9), ($1, '', '', '', 310)`,
    [day],
  );
  const marketer = await createStaff("marketer");
  await signInAsStaff(page, marketer, `/admin/campaigns?from=${day}&to=${day}&sort=visits`);
  const table = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Источник" }) });
  const rows = table.getByRole("row");
  await expect(rows).toHaveCount(5);
  const other = rows.filter({ has: page.getByRole("rowheader", { name: /^Остальные кампании/ }) });
  await expect(other.getByRole("rowheader")).toHaveText(/^Остальные кампании \(переходы по кампаниям сверх 1\s000 в день, без названий\)$/);
  await expect(other.getByRole("cell").first()).toHaveText("310");
  await expect(other.getByRole("link")).toHaveCount(0);
  await expect(rows.nth(2).getByRole("link", { name: /spring/ })).toBeVisible();
  await expect(
    page
      .getByRole("region", { name: /^Итого за период/ })
      .getByRole("definition")
      .first(),
  ).toHaveText("384");
  await expectAccessible(page, "the campaign report with other campaigns");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-campaigns-other");
});

test("an operator gets the 403 page, and the CSV export is refused on the server", async ({ page, playwright, baseURL }) => {
  const operator = await createStaff("operator");
  await signInAsStaff(page, operator, "/admin");
  const response = await page.goto("/admin/campaigns");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "Нет доступа" })).toBeVisible();
  await expect(page.getByText("Ваша роль (оператор) не даёт доступа к этой странице.")).toBeVisible();
  expect((await page.goto("/admin/campaigns/link"))?.status()).toBe(403);
  const refused = await page.request.get("/admin/campaigns/export");
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 403, reason: "permission_denied" });

  const guest = await playwright.request.newContext({ baseURL });
  const anonymous = await guest.get("/admin/campaigns/export");
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toMatchObject({ code: 401, reason: "not_signed_in" });
  await guest.dispose();
});
