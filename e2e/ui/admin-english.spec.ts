import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { createStaff, signInAsStaff } from "../admin-support";
import { expect, expectAccessible, screenshot, test } from "../fixtures";
import { createGiftIntent, expectNoHorizontalScroll } from "./checkout-support";

// The back office in English, end to end: an operator works an order from the queue to delivered
// and refunds another; an admin reads both in the audit log. axe on every page of the way, and no
// Russian word where the interface speaks (the other specs run in Russian).

test.use({ locale: "en-GB" });

/** A paid gift of Portal 2 to Kazakhstan, paid on the hosted payment page. */
async function paidGift(page: Page, request: APIRequestContext, baseURL: string): Promise<string> {
  const intentId = await createGiftIntent(request, baseURL);
  await page.goto(`/pay/${intentId}`);
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/result$`));
  return intentId;
}

/** The interface's own words in English: no Cyrillic in it (the order's data, a buyer's note, may hold some). */
async function expectNoRussian(where: Locator): Promise<void> {
  expect(await where.innerText()).not.toMatch(/[А-Яа-яЁё]/);
}

test("an operator delivers one order from the queue and refunds another, and an admin reads both in the audit log @phone", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const delivered = await paidGift(page, request, baseURL!);
  const refunded = await paidGift(page, request, baseURL!);
  const operator = await createStaff("operator");
  await signInAsStaff(page, operator, "/admin/queue");
  const nav = page.getByRole("navigation", { name: "Management sections" });
  await expect(page.getByRole("heading", { level: 1, name: "Fulfilment queue" })).toBeVisible();
  await expectNoRussian(nav);

  await page.goto(`/admin/queue?q=${delivered}`);
  const card = page.getByRole("article");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Kazakhstan (KZ)");
  await expect(card).toContainText(/Waiting \d+ min/);
  await expect(card).toContainText("nobody yet");
  await expectNoRussian(page.getByRole("main"));
  await expectAccessible(page, "the queue in English");

  await card.getByRole("button", { name: "Take the order" }).click();
  await expect(card.getByRole("status")).toHaveText("The order is yours. Send it, then say how it went.");
  const sent = card.getByRole("combobox", { name: "What was sent" });
  await sent.selectOption({ label: "friend request sent" });
  await card.getByRole("button", { name: "Mark as sent" }).click();
  await expect(card.getByRole("status")).toHaveText("Marked as sent.");
  await sent.selectOption({ label: "gift sent" });
  await card.getByRole("button", { name: "Mark as sent" }).click();
  await expect(card.locator("dd", { hasText: /^gift sent$/ })).toBeVisible();
  await expectAccessible(page, "the queue with a taken order in English");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-en-queue");
  await card.getByRole("button", { name: "Delivered" }).click();
  await expect(page.getByText("The queue is empty: every paid order has been sent.")).toBeVisible();

  // The delivered order's page: its timeline in words, not the codes the database keeps.
  await page.goto(`/admin/orders/${delivered}`);
  await expect(page.getByRole("heading", { level: 1, name: `Order ${delivered.slice(0, 8)}` })).toBeVisible();
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline).toContainText("State: Paid");
  await expect(timeline).toContainText("Delivery: friend request sent");
  await expect(timeline).toContainText("Delivery: gift sent");
  await expect(timeline).toContainText("Delivery attempt #1: step done");
  await expect(timeline).toContainText("State: Fulfilled");
  await expect(timeline).toContainText(`${operator.email}: order taken`);
  await expect(timeline).not.toContainText(/friend_request_sent|gift_sent|: progress\b|delivery\.report/);
  await expect(page.getByRole("region", { name: "What was bought" })).toContainText(/\(app 620\)/);
  await expect(page.getByRole("region", { name: "Delivery" })).toContainText("staff, by hand");
  await expectNoRussian(timeline);
  await expectAccessible(page, "a delivered order in English");
  await screenshot(page, "admin-en-order");

  // The other order: refunded with a reason, from its page.
  await page.goto("/admin/orders");
  await page.getByRole("searchbox", { name: "Search" }).fill(refunded);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Orders found" })).toHaveText("Orders found: 1");
  await expectNoRussian(page.getByRole("table"));
  await expectAccessible(page, "the order list in English");
  await page.getByRole("link", { name: `Order ${refunded}` }).click();
  await page.getByRole("button", { name: "Refund" }).click();
  const dialog = page.getByRole("dialog", { name: `Refund order ${refunded.slice(0, 8)}?` });
  await dialog.getByLabel("Reason for the refund").fill("The buyer changed their mind");
  await expectAccessible(page, "the refund dialog in English");
  await dialog.getByRole("button", { name: "Refund" }).click();
  await expect(dialog).toBeHidden();
  const refundTimeline = page.getByRole("region", { name: "Timeline" });
  await expect(refundTimeline).toContainText(`${operator.email}: refund`);
  await expect(refundTimeline).toContainText("why: operator: The buyer changed their mind");
  await expect(refundTimeline).toContainText("Delivery: failed");
  await expect(refundTimeline).toContainText("The money went back before delivery, so nothing was sent.");
  await expectNoRussian(refundTimeline);

  // An admin, in a browser of their own, reads both changes in the audit log.
  const admin = await createStaff("admin");
  const context = await browser.newContext({ baseURL, locale: "en-GB", viewport: page.viewportSize() ?? undefined });
  try {
    const adminPage = await context.newPage();
    await signInAsStaff(adminPage, admin, "/admin/audit");
    await adminPage.getByLabel("Who (e-mail)").fill(operator.email);
    await adminPage.getByRole("button", { name: "Show" }).click();
    await expect(adminPage).toHaveURL(/actor=/);
    const log = adminPage.getByRole("table");
    await expect(log.getByRole("cell", { name: "Refund", exact: true })).toBeVisible();
    await expect(log.getByRole("cell", { name: "Order taken", exact: true })).toBeVisible();
    await expect(log.getByRole("cell", { name: "Delivery marked", exact: true }).first()).toBeVisible();
    await expect(log).toContainText("State: Paid → Refunded");
    await expect(log).toContainText("Step: in the queue → taken");
    await expect(log).not.toContainText(/order\.refund|delivery\.take|refundReason|friend_request_sent/);
    await expectNoRussian(log);
    await adminPage.getByLabel("Action", { exact: true }).selectOption({ label: "Refund" });
    await adminPage.getByRole("button", { name: "Show" }).click();
    await expect(adminPage).toHaveURL(/action=order\.refund/);
    await expect(log.getByRole("row")).toHaveCount(2);
    await expectAccessible(adminPage, "the audit log in English");
    await screenshot(adminPage, "admin-en-audit");
  } finally {
    await context.close();
  }
});
