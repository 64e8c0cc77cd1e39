import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "../fixtures";
import { countPosts, expectNoHorizontalScroll, intentIdFromSummary, money } from "./checkout-support";

// The gift checkout on a game's page: Portal 2 (620) costs 399 ₽, 599 ₽ with the soundtrack;
// the store's fee is 5 %, included in the price on the store's own pages (STOREFRONT_FEE_MODE's
// default): lib/money.ts quote(price, "included", 500) pays the price, its fee (19,95 ₽ of 399 ₽)
// carved out of it. Elden Ring (1245620, 3 999 ₽) can be gifted to RU and KZ.

const INVITE = "https://s.team/p/fhgc-rdqr/NQVGTQPG";
const VERIFY = "/api/v1/gifts/verify";

async function fillGift(page: Page, { region = "Казахстан", code = "" }: { region?: string; code?: string } = {}) {
  await page.getByLabel("Ссылка-приглашение друга").fill(INVITE);
  await page.getByRole("combobox", { name: "Регион получателя" }).selectOption({ label: region });
  await page.getByLabel("E-mail для чека").fill("gamer@example.com");
  if (code) await page.getByLabel(/Промокод/).fill(code);
}

// The form's own alert (Next's route announcer is an alert region too).
const formAlert = (page: Page) => page.getByRole("main").getByRole("alert");
const submit = (page: Page) => page.getByRole("button", { name: "Оформить подарок" }).click();

test.describe("gift checkout (ru)", () => {
  test.use({ locale: "ru-RU" });

  test("buys a gift: the amount to pay, the intent, and the way on to payment", async ({ page, dbQuery }) => {
    await page.goto("/games/620");
    await expectAccessible(page, { allRules: true });
    await fillGift(page);
    await submit(page);

    const summary = page.getByRole("region", { name: "Заказ оформлен — осталось оплатить" });
    await expect(summary).toBeVisible();
    await expect(summary.getByRole("heading", { name: "Заказ оформлен — осталось оплатить" })).toBeFocused();
    await expect(summary).toContainText("Подарок: Portal 2, регион Казахстан");
    await expect(page.getByTestId("payment-amount")).toHaveText(money("399 ₽"));
    await expect(summary.getByRole("term")).toHaveText(["Цена", "К оплате", "в т. ч. комиссия сервиса"]);
    await expect(summary.getByRole("definition")).toHaveText([money("399 ₽"), money("399 ₽"), money("19,95 ₽")]);
    // The payment page's format: the zone beside the time, the date when it is not today in Moscow.
    await expect(summary).toContainText(/Оплатите до (\d{1,2} [а-я]+ в )?\d\d:\d\d (MSK|GMT\+3)/);
    const intentId = await intentIdFromSummary(page, "Перейти к оплате");
    await expect(summary).toContainText(intentId);

    const [intent] = await dbQuery(
      "SELECT kind, status, app_id, package_id, gift_region, invite_url, email, fee_mode, payment_amount FROM intents WHERE id = $1",
      [intentId],
    );
    expect(intent).toEqual({
      kind: "gift",
      status: "requires_payment",
      app_id: 620,
      package_id: 6201,
      gift_region: "KZ",
      invite_url: INVITE,
      email: "gamer@example.com",
      fee_mode: "included",
      payment_amount: 39900,
    });
    await expectAccessible(page, { allRules: true });
  });

  test("Back from the payment page finds the order, and the form keeps what was typed until another order", async ({ page }) => {
    await page.goto("/games/620");
    await fillGift(page, { code: "welcome10" });
    // A reload (or leaving and coming back) keeps what was typed so far.
    await page.reload();
    await expect(page.getByLabel("Ссылка-приглашение друга")).toHaveValue(INVITE);
    await expect(page.getByRole("combobox", { name: "Регион получателя" })).toHaveValue("KZ");
    await expect(page.getByLabel(/Промокод/)).toHaveValue("welcome10");
    await submit(page);

    const summary = page.getByRole("region", { name: "Заказ оформлен — осталось оплатить" });
    const intentId = await intentIdFromSummary(page, "Перейти к оплате");
    const deadline = /Оплатите до ([^:]*\d\d:\d\d [A-Z+0-9]+)/;
    const summaryDeadline = (await summary.textContent())?.match(deadline)?.[1];
    await page.getByRole("link", { name: "Перейти к оплате" }).click();
    await expect(page).toHaveURL(new RegExp(`/pay/${intentId}$`));
    // The summary said "pay by" in the payment page's own words: the same time, zone and (if not today) date.
    expect(summaryDeadline).toBeTruthy();
    expect((await page.getByRole("main").textContent())?.match(deadline)?.[1]).toBe(summaryDeadline);
    await page.goBack();
    await expect(page).toHaveURL(/\/games\/620$/);
    await expect(summary).toContainText("Подарок: Portal 2, регион Казахстан");
    await expect(summary).toContainText(intentId);
    await page.reload();
    await expect(summary).toContainText(intentId);
    await expectAccessible(page, { allRules: true });

    // Another order starts afresh, the e-mail kept; and stays so after a reload.
    await page.getByRole("button", { name: "Оформить ещё один заказ" }).click();
    await expect(page.getByLabel("Ссылка-приглашение друга")).toHaveValue("");
    await page.reload();
    await expect(page.getByLabel("Ссылка-приглашение друга")).toHaveValue("");
    await expect(page.getByLabel("E-mail для чека")).toHaveValue("gamer@example.com");
    await expect(summary).toHaveCount(0);
  });

  test("what a shopper types before the page's scripts have loaded is kept, not wiped when they start", async ({ page }) => {
    // Hold every script back until the form is filled in: the server-rendered form is typed into
    // first, as on a slow phone, and React starts only afterwards.
    let release!: () => void;
    const scriptsMayLoad = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_next\/static\/.*\.js(\?|$)/, async (route) => {
      await scriptsMayLoad;
      await route.continue();
    });
    await page.goto("/games/620", { waitUntil: "domcontentloaded" });
    await fillGift(page, { code: "welcome10" });
    release();
    // Hydrated: the live recipient line exists only once React runs.
    await expect(page.getByTestId("invite-recipient")).toHaveText("Подарок получит аккаунт SteamID64 76561198853767868.");
    await expect(page.getByLabel("Ссылка-приглашение друга")).toHaveValue(INVITE);
    await expect(page.getByRole("combobox", { name: "Регион получателя" })).toHaveValue("KZ");
    await expect(page.getByLabel("E-mail для чека")).toHaveValue("gamer@example.com");
    await expect(page.getByLabel(/Промокод/)).toHaveValue("welcome10");
    await submit(page);
    await expect(page.getByRole("region", { name: "Заказ оформлен — осталось оплатить" })).toContainText(
      "Подарок: Portal 2, регион Казахстан",
    );
  });

  test("shows the friend's account as the invite link is typed, and refuses a link that names none", async ({ page }) => {
    await page.goto("/games/620");
    const field = page.getByLabel("Ссылка-приглашение друга");
    const recipient = page.getByTestId("invite-recipient");
    await field.fill("https://s.team/p/fhgc-rd");
    await expect(recipient).toHaveText("");
    await field.fill(INVITE);
    await expect(recipient).toHaveText("Подарок получит аккаунт SteamID64 76561198853767868.");
    await field.fill("https://s.team/p/abcd-efgh/QWERTYUI");
    await expect(recipient).toHaveText("");
    await page.getByRole("combobox", { name: "Регион получателя" }).selectOption({ label: "Россия" });
    await page.getByLabel("E-mail для чека").fill("gamer@example.com");
    await submit(page);
    await expect(field).toHaveAccessibleDescription(/По этой ссылке не найти аккаунт друга/);
    await expect(field).toBeFocused();
  });

  test("a promo code shows in the breakdown", async ({ page }) => {
    await page.goto("/games/620");
    await fillGift(page, { region: "Россия", code: "welcome10" });
    await submit(page);
    const summary = page.getByRole("region", { name: "Заказ оформлен — осталось оплатить" });
    // 10 % off 399 ₽ is 39,90 ₽; the fee stays inside the 359,10 ₽ paid (5 %, halves up: 17,96 ₽).
    await expect(page.getByTestId("payment-amount")).toHaveText(money("359,10 ₽"));
    await expect(summary.getByRole("term")).toHaveText(["Цена", "Скидка по промокоду WELCOME10", "К оплате", "в т. ч. комиссия сервиса"]);
    await expect(summary.getByRole("definition")).toHaveText([money("399 ₽"), money("−39,90 ₽"), money("359,10 ₽"), money("17,96 ₽")]);
  });

  test("refuses an empty form in place: a message by each field, focus on the first, nothing sent", async ({ page }) => {
    await page.goto("/games/620");
    const posts = countPosts(page, VERIFY);
    await submit(page);

    const invite = page.getByLabel("Ссылка-приглашение друга");
    await expect(invite).toBeFocused();
    await expect(invite).toHaveAttribute("aria-invalid", "true");
    await expect(invite).toHaveAccessibleDescription(/Вставьте ссылку-приглашение друга\./);
    await expect(page.getByRole("combobox", { name: "Регион получателя" })).toHaveAccessibleDescription(/Выберите регион получателя\./);
    await expect(page.getByLabel("E-mail для чека")).toHaveAccessibleDescription(/Укажите e-mail: на него придёт чек\./);
    await expectAccessible(page, { allRules: true });

    // Fixed as the shopper types, checked by the same schema the API uses.
    await invite.fill("https://example.com/p/abc/DEF");
    await expect(page.getByText("Это не ссылка-приглашение. Нужна ссылка вида https://s.team/p/fhgc-rdqr/NQVGTQPG.")).toBeVisible();
    await invite.fill(INVITE);
    await expect(invite).not.toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("E-mail для чека").fill("gamer@");
    await expect(page.getByText("Проверьте e-mail: нужен адрес вида name@example.com.")).toBeVisible();
    await page.getByLabel(/Промокод/).fill("BAD CODE!");
    await expect(page.getByText("В промокоде бывают только латинские буквы, цифры, «-» и «_» (до 64 символов).")).toBeVisible();
    await submit(page);
    await expect(page.getByRole("combobox", { name: "Регион получателя" })).toBeFocused();
    expect(posts.count).toBe(0);
  });

  const promoCases: [string, string][] = [
    ["NOPE", "Промокода NOPE нет. Проверьте, как он написан."],
    ["EXPIRED2025", "Срок действия промокода EXPIRED2025 истёк."],
    ["FUTURE30", "Промокод FUTURE30 ещё не действует."],
    ["USEDUP", "Промокод USEDUP уже использован максимальное число раз."],
    ["GEAR15", "Промокод GEAR15 не действует на подарки."],
  ];
  for (const [code, message] of promoCases) {
    test(`400 for promo code ${code}: said beside the code, the form kept`, async ({ page }) => {
      await page.goto("/games/620");
      await fillGift(page, { code });
      await submit(page);
      const field = page.getByLabel(/Промокод/);
      await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
      await expect(field).toBeFocused();
      await expect(formAlert(page)).toContainText("Заказ не оформлен");
      await expect(page.getByLabel("Ссылка-приглашение друга")).toHaveValue(INVITE);
      // A new code clears the message and goes through.
      await field.fill("MINUS300");
      await expect(page.getByText(message)).toHaveCount(0);
      await submit(page);
      // 399 ₽ − 300 ₽, the fee inside.
      await expect(page.getByTestId("payment-amount")).toHaveText(money("99 ₽"));
    });
  }

  test("409 region not giftable (the game changed after the page loaded): said beside the region", async ({ page, dbQuery }) => {
    await page.goto("/games/1245620");
    await fillGift(page, { region: "Казахстан" });
    await dbQuery("UPDATE games SET gift_regions = '{RU}' WHERE app_id = 1245620");
    try {
      await submit(page);
      const region = page.getByRole("combobox", { name: "Регион получателя" });
      await expect(region).toHaveAccessibleDescription(/Эту игру нельзя подарить в регион «Казахстан»\. Доступны: Россия\./);
      await expect(region).toBeFocused();
      await expect(formAlert(page)).toContainText("Заказ не оформлен");
      await expectAccessible(page, { allRules: true });
      await region.selectOption({ label: "Россия" });
      await submit(page);
      await expect(page.getByTestId("payment-amount")).toHaveText(money("3 999 ₽"));
    } finally {
      await dbQuery("UPDATE games SET gift_regions = '{RU,KZ}' WHERE app_id = 1245620");
    }
  });

  test("a server failure is a message on the form, never a blank page", async ({ page }) => {
    await page.goto("/games/620");
    await fillGift(page);
    await page.route(`**${VERIFY}`, (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ code: 500, message: "internal error; quote request id r-42 when reporting it" }),
      }),
    );
    await submit(page);
    const alert = formAlert(page);
    await expect(alert).toContainText("Магазин не смог оформить заказ. Попробуйте ещё раз чуть позже.");
    await expect(alert).toContainText("r-42");
    await expect(alert).toBeFocused();

    await page.unroute(`**${VERIFY}`);
    await page.route(`**${VERIFY}`, (route) => route.abort("internetdisconnected"));
    await submit(page);
    await expect(alert).toContainText("Нет связи с магазином. Проверьте подключение и попробуйте снова.");

    await page.unroute(`**${VERIFY}`);
    await submit(page);
    await expect(page.getByTestId("payment-amount")).toHaveText(money("399 ₽"));
  });

  test("a game that cannot be bought says so instead of a form", async ({ page }) => {
    await page.goto("/games/999990");
    await expect(page.getByText("Игра ещё не вышла: купить её в подарок можно будет после релиза.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Оформить подарок" })).toHaveCount(0);
    await page.goto("/games/999991");
    await expect(page.getByText("У игры пока нет цены, поэтому купить её в подарок нельзя.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Оформить подарок" })).toHaveCount(0);
  });

  test("works from the keyboard alone", async ({ page }) => {
    await page.goto("/games/620");
    await page.getByLabel("Ссылка-приглашение друга").focus();
    await page.keyboard.type(INVITE);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("combobox", { name: "Регион получателя" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("radio", { name: /^Portal 2 399/ })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("radio", { name: /Portal 2 \+ Soundtrack/ })).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("E-mail для чека")).toBeFocused();
    await page.keyboard.type("gamer@example.com");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel(/Промокод/)).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Применить" })).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(page.getByLabel(/Промокод/)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("payment-amount")).toHaveText(money("599 ₽"));
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Перейти к оплате" })).toBeFocused();
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("fits the width in every state", async ({ page }) => {
      await page.goto("/games/620");
      await expectNoHorizontalScroll(page);
      await submit(page);
      await expect(page.getByLabel("Ссылка-приглашение друга")).toBeFocused();
      await expectNoHorizontalScroll(page);
      await fillGift(page);
      await submit(page);
      await expect(page.getByTestId("payment-amount")).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, { allRules: true });
    });
  });
});

test.describe("gift checkout (en)", () => {
  test.use({ locale: "en-US" });

  test("speaks the shopper's language, errors included", async ({ page }) => {
    await page.goto("/games/620");
    await page.getByRole("button", { name: "Create gift order" }).click();
    await expect(page.getByLabel("Your friend's invite link")).toHaveAccessibleDescription(/Paste your friend's invite link\./);
    await expect(page.getByRole("combobox", { name: "Recipient's region" })).toHaveAccessibleDescription(/Choose the recipient's region\./);
    await page.getByLabel("Your friend's invite link").fill(INVITE);
    await page.getByRole("combobox", { name: "Recipient's region" }).selectOption({ label: "Kazakhstan" });
    await page.getByLabel("E-mail for the receipt").fill("gamer@example.com");
    await page.getByLabel(/Promo code/).fill("PORTAL50");
    await page.getByRole("button", { name: "Create gift order" }).click();
    const summary = page.getByRole("region", { name: "Order created — one step left: payment" });
    await expect(summary).toContainText("Gift: Portal 2, region Kazakhstan");
    await expect(summary.getByRole("term")).toHaveText(["Price", "Promo code PORTAL50", "To pay", "including service fee"]);
    await expect(summary.getByRole("definition")).toHaveText([money("₽399"), money("−₽199.50"), money("₽199.50"), money("₽9.98")]);
    await expect(page.getByRole("link", { name: "Proceed to payment" })).toBeVisible();
    await expectAccessible(page, { allRules: true });
  });
});
