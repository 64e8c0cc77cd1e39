import type { Page } from "@playwright/test";
import { createStaff, signInAsStaff } from "../admin-support";
import { expect, expectAccessible, screenshot, test } from "../fixtures";
import { expectNoHorizontalScroll } from "./checkout-support";

// A shopper who bought as a guest signs up with the same address, finds the confirmation in the
// mail (kept on /dev/mail without SMTP, as the README says), follows the link, confirms, and then
// sees the guest order on the account page, which showed nothing of it before.

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const PASSWORD = "violet tundra ferry oak 8";

test.use({ locale: "en-GB" });

async function buyAsGuest(page: Page, email: string) {
  await page.goto("/games/620");
  await page.getByLabel("Your friend's invite link").fill("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  await page.getByRole("combobox", { name: "Recipient's region" }).selectOption({ label: "Kazakhstan" });
  await page.getByLabel("E-mail for the receipt").fill(email);
  await page.getByRole("button", { name: "Create gift order" }).click();
  await expect(page.getByRole("link", { name: "Proceed to payment" })).toBeVisible();
}

async function signUp(page: Page, email: string) {
  await page.goto("/sign-up?callbackUrl=%2Faccount");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account\?arrived=accountCreated$/);
}

/** The confirmation link from the newest confirmation mail to `email`, read on /dev/mail as its owner would read the mail. */
async function linkFromMail(page: Page, email: string): Promise<string> {
  await page.goto("/dev/mail");
  await page
    .getByRole("row")
    .filter({ hasText: email })
    .filter({ hasText: "Confirm your e-mail address at GiftKey" })
    .first()
    .getByRole("link")
    .click();
  const text = await page.locator("pre").innerText();
  const link = /https?:\/\/\S+\/confirm-email\?token=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  expect(link, "a confirmation link in the text part").toBeTruthy();
  return link!;
}

test("sign up, the mail, the link, confirmed: the guest order appears on the account page @phone", async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const phone = testInfo.project.name === "phone";
  const email = `guest-then-member-${run}-${phone ? "p" : "d"}@example.com`;
  await buyAsGuest(page, email);
  await page.context().clearCookies();

  await signUp(page, email);
  const emailSection = page.getByRole("region", { name: "E-mail" });
  await expect(emailSection).toContainText(`Your address ${email} is not confirmed yet.`);
  await expect(page.getByRole("region", { name: "Orders placed without signing in" })).toHaveCount(0);
  await expect(page.getByText("No orders yet.", { exact: false })).toBeVisible();
  await expectAccessible(page, { context: "the account page, not confirmed", allRules: true });
  await expectNoHorizontalScroll(page);
  await screenshot(page, "account-unconfirmed");

  await emailSection.getByRole("button", { name: "Send the e-mail again" }).click();
  await expect(emailSection.getByRole("status")).toHaveText(`Sent to ${email}. The link works for 48 hours.`);

  const link = await linkFromMail(page, email);
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your e-mail" })).toBeVisible();
  await expect(page.getByText(`Confirm that ${email} is your address`, { exact: false })).toBeVisible();
  await expectAccessible(page, { context: "the confirmation page", allRules: true });
  await expectNoHorizontalScroll(page);
  await screenshot(page, "confirm-email-ready");
  await page.getByRole("button", { name: "Confirm the address" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("Done: your address is confirmed.");
  await expectAccessible(page, { context: "the confirmation page, confirmed", allRules: true });
  await screenshot(page, "confirm-email-confirmed");

  // The same link again: clear, and changes nothing.
  await page.goto(link);
  await expect(page.getByRole("main").getByRole("status")).toHaveText("This address is already confirmed. Nothing more to do.");

  await page.getByRole("link", { name: "To your account" }).click();
  await expect(page.getByRole("region", { name: "E-mail" })).toContainText(`Your address ${email} is confirmed.`);
  const guestOrders = page.getByRole("region", { name: "Orders placed without signing in" });
  const order = guestOrders.getByRole("listitem").first();
  await expect(order).toContainText("Portal 2");
  await expect(order).toContainText("RegionKazakhstan");
  await expectAccessible(page, { context: "the account page, confirmed, with a guest order", allRules: true });
  await expectNoHorizontalScroll(page);
  await screenshot(page, "account-confirmed-guest-orders");
  // Read-only, through its signed link: the order page opens for this account.
  await order.getByRole("link", { name: /Order page/ }).click();
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}\?t=/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("an expired or altered link says so and where to get a new one", async ({ page, dbQuery }) => {
  const email = `late-${run}@example.com`;
  await signUp(page, email);
  const link = await linkFromMail(page, email);
  await dbQuery(
    `UPDATE email_confirmations SET created_at = now() - interval '3 days', expires_at = now() - interval '1 day'
     WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
    [email],
  );
  await page.context().clearCookies();
  await page.goto(link);
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("This link has expired.");
  await expect(alert).toContainText("Sign in and send a new e-mail from your account page.");
  await expect(page.getByRole("button", { name: "Confirm the address" })).toHaveCount(0);
  await expectAccessible(page, { context: "the confirmation page, expired link", allRules: true });
  await screenshot(page, "confirm-email-expired");

  await page.goto(`${link.slice(0, -1)}${link.endsWith("A") ? "B" : "A"}`);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This link does not work");
});

test("the staff page shows a role granted to an account that has not confirmed its address as waiting @phone", async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  const waiting = `waiting-${run}-${testInfo.project.name}@example.com`;
  await signUp(page, waiting);
  await page.context().clearCookies();

  const admin = await createStaff("admin", "confirm-admin");
  await signInAsStaff(page, admin, "/admin/staff");
  await page.getByLabel("E-mail").fill(waiting);
  await page.getByLabel("Role", { exact: true }).selectOption("operator");
  await page.getByRole("button", { name: "Give the role" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(
    `The operator role was given to ${waiting}, but it takes effect only once`,
  );
  const row = page.getByRole("row").filter({ hasText: waiting });
  await expect(row).toContainText("waiting for the e-mail confirmation");
  // (Its e-mail is in the waiting row too, as who granted the role.)
  await expect(page.getByRole("row", { name: new RegExp(`^${admin.email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) })).toContainText(
    "in effect",
  );
  await expectAccessible(page, { context: "the staff page with a waiting role", allRules: true });
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-staff-waiting");
});
