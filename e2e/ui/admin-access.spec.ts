import { createStaff, signInAsStaff } from "../admin-support";
import { expect, expectAccessible, screenshot, test } from "../fixtures";
import { expectNoHorizontalScroll } from "./checkout-support";

// Each test makes its staff with `npm run staff:grant` (a process of its own) and signs in: on a
// machine shared with other runs that alone can take most of the default 30 s.
test.describe.configure({ timeout: 60_000 });

// The back office's door: a guest is sent to sign in and comes back, a shopper gets the 403 page,
// an admin made with the README's command signs in with the printed password and gives a role.

test.use({ locale: "en-GB" });

test("a guest is sent to sign in and back; a shopper gets the no-access page @phone", async ({ page }) => {
  await page.goto("/admin/audit");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fadmin%2Faudit$/);

  const shopper = `shopper-${Date.now().toString(36)}@example.com`;
  await page.goto("/sign-up?callbackUrl=%2Fadmin");
  await page.getByLabel("E-mail").fill(shopper);
  await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "No access" })).toBeVisible();
  await expect(page.getByText("This page is for the store's staff.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Management sections" })).toHaveCount(0);
  await expectAccessible(page, "403 page");
  await screenshot(page, "admin-403");
});

test("the first admin signs in with the printed password, gives a role, and the audit log shows it @phone", async ({ page }) => {
  // staff:grant, a sign-in and axe on three pages: more than one page's test on a busy machine.
  test.setTimeout(60_000);
  const admin = await createStaff("admin", "first-admin");
  await signInAsStaff(page, admin, "/admin");
  const nav = page.getByRole("navigation", { name: "Management sections" });
  for (const section of ["Orders", "Fulfilment queue", "Campaigns", "Audit log", "Staff"]) {
    await expect(nav.getByRole("link", { name: section })).toBeVisible();
  }
  await expectAccessible(page, "admin home");
  await screenshot(page, "admin-home");

  await nav.getByRole("link", { name: "Staff" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();
  const newcomer = `support-${Date.now().toString(36)}@staff.example.com`;
  await page.getByLabel("E-mail").fill(newcomer);
  await page.getByLabel("Role", { exact: true }).selectOption("support");
  await page.getByRole("button", { name: "Give the role" }).click();
  await expect(page.getByRole("status")).toContainText(`The support role was given to ${newcomer}.`);
  await expect(page.getByRole("status")).toContainText("Account created.");
  await expect(page.getByRole("cell", { name: newcomer, exact: true })).toBeVisible();
  await expectAccessible(page, "staff page");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-staff");

  await nav.getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel("Who (e-mail)").fill(admin.email);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/actor=/);
  await expect(page.getByRole("cell", { name: "Role given", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: /^User / }).first()).toBeVisible();
  await expect(page.getByText("Account created:").first()).toBeVisible();
  await expect(page.getByText(newcomer).first()).toBeVisible();
  await expectAccessible(page, "audit log");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-audit");
});

test("a support member sees only their sections and gets the 403 page for the staff list", async ({ page }) => {
  const support = await createStaff("support");
  await signInAsStaff(page, support, "/admin");
  const nav = page.getByRole("navigation", { name: "Management sections" });
  await expect(nav.getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Staff" })).toHaveCount(0);
  const response = await page.goto("/admin/staff");
  expect(response?.status()).toBe(403);
  await expect(page.getByText("Your role (support) does not give access to this page.")).toBeVisible();
});
