import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { createStaff, signInAsStaff } from "../admin-support";
import { expect, expectAccessible, screenshot, test, type DbQuery } from "../fixtures";
import { createGiftIntent, expectNoHorizontalScroll } from "./checkout-support";

// Each test makes its staff with `npm run staff:grant` (a process of its own) and signs in: on a
// machine shared with other runs that alone can take most of the default 30 s.
test.describe.configure({ timeout: 60_000 });

// The back office's fulfilment queue, partners and outgoing mail, as staff use them. The e2e server
// delivers by hand (DELIVERY_PROVIDER manual), so every paid order waits in the queue for a person.

test.use({ locale: "ru-RU" });

/** A paid gift of Portal 2 to Kazakhstan, paid on the hosted payment page as a shopper pays. */
async function paidGift(page: Page, request: APIRequestContext, baseURL: string): Promise<string> {
  const intentId = await createGiftIntent(request, baseURL);
  await page.goto(`/pay/${intentId}`);
  await page.getByRole("button", { name: /^Оплатить/ }).click();
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/result$`));
  return intentId;
}

/** The order's card in the queue, found by its id with the queue's search. */
async function openInQueue(page: Page, intentId: string) {
  await page.goto(`/admin/queue?q=${intentId}`);
  const card = page.getByRole("article");
  await expect(card).toHaveCount(1);
  return card;
}

async function signedOrderLink(dbQuery: DbQuery, intentId: string): Promise<string> {
  const [mail] = await dbQuery<{ text: string }>("SELECT text FROM mail_messages WHERE intent_id = $1 AND kind = 'receipt'", [intentId]);
  return new RegExp(`/orders/${intentId}\\?t=[A-Za-z0-9_-]{43}`).exec(mail!.text)![0];
}

test("an operator works an order from the queue to delivered @phone", async ({ page, request, baseURL, dbQuery }) => {
  const intentId = await paidGift(page, request, baseURL!);
  const operator = await createStaff("operator");
  await signInAsStaff(page, operator, "/admin/queue");
  await expect(page.getByRole("heading", { level: 1, name: "Очередь выдачи" })).toBeVisible();

  const card = await openInQueue(page, intentId);
  await expect(card.getByRole("heading", { level: 2 })).toContainText("Portal 2");
  await expect(card.getByRole("link", { name: "https://s.team/p/fhgc-rdqr/NQVGTQPG" })).toHaveAttribute(
    "href",
    "https://s.team/p/fhgc-rdqr/NQVGTQPG",
  );
  await expect(card.getByRole("link", { name: "профиль 76561198853767868" })).toBeVisible();
  await expect(card).toContainText("Казахстан (KZ)");
  await expect(card).toContainText(/Ждёт \d+ мин/);
  await expect(card).toContainText("никто не взял");
  await expectAccessible(page, "the queue");

  await card.getByRole("button", { name: "Взять в работу" }).click();
  await expect(card.getByRole("status")).toHaveText("Заказ ваш. Отправьте его и отметьте, как прошло.");
  await expect(card).toContainText("В работе у");
  await expect(card).toContainText("вас");

  const sent = card.getByRole("combobox", { name: "Что отправлено" });
  await sent.selectOption({ label: "заявка в друзья отправлена" });
  await card.getByRole("button", { name: "Отметить отправку" }).click();
  await expect(card.getByRole("status")).toHaveText("Отправка отмечена.");
  await expect(card.locator("dd", { hasText: /^заявка в друзья отправлена$/ })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectAccessible(page, "the queue with a taken order");
  await screenshot(page, "admin-queue");

  await sent.selectOption({ label: "подарок отправлен" });
  await card.getByRole("button", { name: "Отметить отправку" }).click();
  await expect(card.locator("dd", { hasText: /^подарок отправлен$/ })).toBeVisible();
  await card.getByRole("button", { name: "Доставлено" }).click();
  // Delivered: the order leaves the queue.
  await expect(page.getByText("Очередь пуста: все оплаченные заказы отправлены.")).toBeVisible();

  const audit = await dbQuery<{ action: string; actor: string }>(
    "SELECT action, actor FROM audit_log WHERE target_type = 'intent' AND target_id = $1 ORDER BY id",
    [intentId],
  );
  expect(audit.map((a) => a.action)).toEqual(["delivery.take", "delivery.report", "delivery.report", "delivery.report"]);
  expect(new Set(audit.map((a) => a.actor))).toEqual(new Set([operator.email]));

  // The shopper's order page, by the receipt's link, shows it delivered.
  await page.goto(await signedOrderLink(dbQuery, intentId));
  const progress = page.getByRole("region", { name: "Доставка" });
  await expect(progress).toContainText("Подарок принят — доставлено");
});

test("a second operator cannot take an order another has taken", async ({ browser, page, request, baseURL }) => {
  const intentId = await paidGift(page, request, baseURL!);
  const [first, second] = await Promise.all([createStaff("operator", "first"), createStaff("operator", "second")]);
  await signInAsStaff(page, first, "/admin/queue");
  const other = await browser.newContext({ baseURL, locale: "ru-RU" });
  try {
    const late = await other.newPage();
    await signInAsStaff(late, second, "/admin/queue");
    // Both see the order free; the first takes it while the second's page still offers it.
    const lateCard = await openInQueue(late, intentId);
    const card = await openInQueue(page, intentId);
    await card.getByRole("button", { name: "Взять в работу" }).click();
    await expect(card.getByRole("status")).toHaveText("Заказ ваш. Отправьте его и отметьте, как прошло.");

    await lateCard.getByRole("button", { name: "Взять в работу" }).click();
    await expect(lateCard.getByRole("status")).toHaveText("Этот заказ уже взял в работу другой сотрудник.");
    await expect(lateCard).toContainText(`Заказ взял в работу ${first.email}.`);
    await expect(lateCard.getByRole("button")).toHaveCount(0);

    // Reloaded, it still shows who has it and offers nothing.
    const again = await openInQueue(late, intentId);
    await expect(again).toContainText(`Заказ взял в работу ${first.email}.`);
    await expect(again.getByRole("button")).toHaveCount(0);
  } finally {
    await other.close();
  }
});

test("an admin revokes a partner's token on the partners page @phone", async ({ page, dbQuery }) => {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const ownerEmail = `partner-${suffix}@example.com`;
  const [owner] = await dbQuery<{ id: string }>("INSERT INTO users (email, name) VALUES ($1, 'E2E partner') RETURNING id", [ownerEmail]);
  const [token] = await dbQuery<{ id: string }>(
    `INSERT INTO api_tokens (user_id, name, prefix, token_hash, scopes)
     VALUES ($1, $2, $3, encode(sha256(convert_to($2, 'UTF8')), 'hex'), ARRAY['gifts:verify', 'intents:read']) RETURNING id`,
    [owner!.id, `shop ${suffix}`, `gk_live_${suffix.slice(0, 4)}`],
  );
  await dbQuery(
    `INSERT INTO webhook_endpoints (user_id, url, event_types, secret)
     VALUES ($1, 'https://hooks.example.com/giftkey', ARRAY['intent.paid'], 'whsec_ZTJlLXNlY3JldC1uZXZlci1zaG93bg==')`,
    [owner!.id],
  );

  const admin = await createStaff("admin");
  await signInAsStaff(page, admin, "/admin/partners");
  await expect(page.getByRole("heading", { level: 1, name: "Партнёры" })).toBeVisible();
  await page.getByLabel("E-mail владельца").fill(ownerEmail);
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page).toHaveURL(/\/admin\/partners\?email=/);
  const partner = page.getByRole("region", { name: ownerEmail });
  await expect(partner.getByRole("row", { name: new RegExp(`shop ${suffix}`) })).toContainText("действует");
  await expect(partner).toContainText("https://hooks.example.com/giftkey");
  await expect(partner).toContainText("все доходят");
  await expect(page.locator("body")).not.toContainText("whsec_");
  await expectAccessible(page, "the partners page");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-partners");

  await partner.getByRole("button", { name: `Отозвать токен «shop ${suffix}»` }).click();
  const dialog = page.getByRole("dialog", { name: `Отозвать токен «shop ${suffix}»?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Отозвать", exact: true }).click();
  // The refreshed row says so, and the notice is still there after the refresh (it used to vanish with the button).
  const row = partner.getByRole("row", { name: new RegExp(`shop ${suffix}`) });
  await expect(row).not.toContainText("действует");
  await expect(row).toContainText("отозван");
  await expect(partner.getByRole("status").filter({ hasText: "отозван" })).toHaveText(`Токен «shop ${suffix}» отозван.`);

  const [revoked] = await dbQuery<{ revoked: boolean }>("SELECT revoked_at IS NOT NULL AS revoked FROM api_tokens WHERE id = $1", [
    token!.id,
  ]);
  expect(revoked!.revoked).toBe(true);
  const audit = await dbQuery<{ action: string; actor: string }>("SELECT action, actor FROM audit_log WHERE target_id = $1", [token!.id]);
  expect(audit).toEqual([{ action: "token.revoke", actor: admin.email }]);
});

test("support reads the outgoing mail the store kept @phone", async ({ page, request, baseURL }) => {
  const intentId = await paidGift(page, request, baseURL!);
  const support = await createStaff("support");
  await signInAsStaff(page, support, "/admin/mail");
  await expect(page.getByRole("heading", { level: 1, name: "Исходящая почта" })).toBeVisible();
  await expect(page.getByRole("note")).toContainText("SMTP_URL не задан");
  await page.getByLabel("Получатель").fill("e2e@example.com");
  await page.getByRole("button", { name: "Показать" }).click();
  await expect(page).toHaveURL(/recipient=e2e%40example\.com/);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: intentId.slice(0, 8) }) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("e2e@example.com");
  await expect(row).toContainText("чек");
  await expectAccessible(page, "the mail list");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-mail");

  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/admin\/mail\/[0-9a-f-]{36}$/);
  await expect(page.locator("iframe")).toHaveAttribute("sandbox", "allow-popups allow-popups-to-escape-sandbox");
  await expect(page.getByRole("heading", { level: 2, name: "Текстовая версия" })).toBeVisible();
  await expect(page.locator("pre")).toContainText(intentId);
  await expect(page.getByRole("link", { name: intentId })).toHaveAttribute("href", `/admin/orders/${intentId}`);
  // axe cannot run inside the sandboxed frame (scripts are off there, on purpose): the page around it is checked.
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .options({ iframes: false })
    .exclude("iframe")
    .analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await screenshot(page, "admin-mail-message");
});
