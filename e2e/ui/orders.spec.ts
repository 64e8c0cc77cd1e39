import { expect, expectAccessible, screenshot, test, type DbQuery } from "../fixtures";
import { expectNoHorizontalScroll } from "./checkout-support";

// After payment: the result page says what happens next and links to the order page, where the
// delivery's progress appears as it happens. The e2e server delivers by hand (DELIVERY_PROVIDER
// manual), so this spec moves the delivery on as a person working the queue would, in the database
// (lib/services/delivery.ts takeDelivery / reportManualDelivery write the same rows).

test.use({ locale: "ru-RU" });

type Step = "taken" | "friend_request_sent" | "gift_sent" | "accepted";

async function advance(dbQuery: DbQuery, intentId: string, step: Step): Promise<void> {
  if (step === "accepted") {
    await dbQuery(
      "UPDATE deliveries SET status = 'delivered', step = 'accepted', finished_at = now(), updated_at = now() WHERE intent_id = $1",
      [intentId],
    );
  } else {
    await dbQuery("UPDATE deliveries SET step = $2, updated_at = now() WHERE intent_id = $1", [intentId, step]);
  }
  await dbQuery("INSERT INTO intent_events (intent_id, kind, value, actor) VALUES ($1, 'delivery', $2, 'operator@e2e.test')", [
    intentId,
    step,
  ]);
  // The intent's own move; its trigger writes the "fulfilled" entry.
  if (step === "accepted") await dbQuery("UPDATE intents SET status = 'fulfilled' WHERE id = $1", [intentId]);
}

test("a guest buys a gift, pays, follows the result page's link and watches the delivery arrive @phone", async ({ page, dbQuery }) => {
  await page.goto("/games/620");
  await page.getByLabel("Ссылка-приглашение друга").fill("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  await page.getByRole("combobox", { name: "Регион получателя" }).selectOption({ label: "Казахстан" });
  await page.getByLabel("E-mail для чека").fill("orders-e2e@example.com");
  await page.getByRole("button", { name: "Оформить подарок" }).click();
  await page.getByRole("link", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/pay\/[0-9a-f-]{36}$/);
  const intentId = /\/pay\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  await page.getByRole("button", { name: /^Оплатить/ }).click();

  // The result page: what happens next, by whom and how soon, and the way to follow it.
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/result$`));
  const next = page.getByRole("region", { name: "Что дальше" });
  await expect(next).toContainText("Сотрудник GiftKey отправит подарок вручную");
  await expect(next).toContainText("несколько часов");
  await next.getByRole("link", { name: "Следить за заказом" }).click();

  await expect(page).toHaveURL(new RegExp(`/orders/${intentId}\\?t=[A-Za-z0-9_-]{43}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Заказ: Portal 2" })).toBeVisible();
  const progress = page.getByRole("region", { name: "Доставка" });
  const steps = progress.getByRole("listitem");
  await expect(steps).toHaveText([/Заказ оформлен/, /Оплачено/, /В очереди: заказ отправит сотрудник GiftKey/]);
  await expect(progress).toContainText("Оплачено, готовим доставку");
  const recipient = page.getByRole("region", { name: "Кому" });
  await expect(recipient).toContainText("Казахстан");
  // The friend the invite link names, decoded (https://s.team/p/fhgc-rdqr/… is account 893502140).
  const friend = recipient.locator("div").filter({ has: page.getByRole("term").getByText("Аккаунт друга (SteamID64)", { exact: true }) });
  await expect(friend.getByRole("definition")).toHaveText("76561198853767868");
  await expect(page.getByRole("region", { name: "Сумма" })).toContainText("К оплате");
  await expectAccessible(page, "the order page on its way");

  // Each step appears without a reload, and is announced.
  let loads = 0;
  page.on("load", () => loads++);
  await advance(dbQuery, intentId, "taken");
  await advance(dbQuery, intentId, "friend_request_sent");
  await expect(steps.last()).toContainText("Заявка в друзья отправлена");
  await expect(progress.getByText("Ждём ответа друга")).toBeVisible();
  await expect(progress.locator("[aria-live=polite]")).toContainText("Новое в заказе: Заявка в друзья отправлена");
  await screenshot(page, "order-page-friend-request");

  await advance(dbQuery, intentId, "gift_sent");
  await expect(steps.last()).toContainText("Подарок отправлен");
  await advance(dbQuery, intentId, "accepted");
  await expect(steps.last()).toContainText("Подарок принят — доставлено");
  await expect(progress.getByText("Доставлено", { exact: true })).toBeVisible();
  await expect(progress).not.toContainText("Страница обновляется сама");
  expect(loads).toBe(0);
  await expectNoHorizontalScroll(page);
  await expectAccessible(page, "the delivered order page");
  await screenshot(page, "order-page-delivered");

  // Keyboard: the page's links are reachable by Tab.
  await page.keyboard.press("Tab");
  await expect(page.locator(":focus")).toBeVisible();
});

test("a guest opens the order's signed link in a fresh browser; the bare address is not found", async ({
  browser,
  page,
  dbQuery,
  baseURL,
}) => {
  await page.goto("/games/620");
  await page.getByLabel("Ссылка-приглашение друга").fill("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  await page.getByRole("combobox", { name: "Регион получателя" }).selectOption({ label: "Россия" });
  await page.getByLabel("E-mail для чека").fill("orders-link@example.com");
  await page.getByRole("button", { name: "Оформить подарок" }).click();
  await page.getByRole("link", { name: "Перейти к оплате" }).click();
  await page.getByRole("button", { name: /^Оплатить/ }).click();
  await expect(page).toHaveURL(/\/pay\/[0-9a-f-]{36}\/result$/);
  const intentId = /\/pay\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
  // The link the receipt carries, as the shopper would click it in their mail.
  const [mail] = await dbQuery<{ text: string }>("SELECT text FROM mail_messages WHERE intent_id = $1 AND kind = 'receipt'", [intentId]);
  const link = new RegExp(`/orders/${intentId}\\?t=[A-Za-z0-9_-]{43}`).exec(mail!.text)![0];

  const fresh = await browser.newContext({ baseURL, locale: "en-GB" });
  try {
    const guest = await fresh.newPage();
    await guest.goto(link);
    await expect(guest.getByRole("heading", { level: 1, name: "Order: Portal 2" })).toBeVisible();
    await expect(guest.getByRole("region", { name: "Delivery" }).getByRole("listitem")).toHaveText([
      /Order placed/,
      /Paid/,
      /In the queue: a member of the GiftKey team will send it/,
    ]);
    await expectAccessible(guest, "the order page in English");

    const bare = await guest.goto(`/orders/${intentId}`);
    expect(bare?.status()).toBe(404);
    await expect(guest.getByRole("heading", { level: 1, name: "Order not found" })).toBeVisible();
    await expect(guest.getByText("Portal 2")).toHaveCount(0);
  } finally {
    await fresh.close();
  }
});
