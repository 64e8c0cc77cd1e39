import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { createStaff, signInAsStaff } from "../admin-support";
import { expect, expectAccessible, screenshot, test } from "../fixtures";
import { expectNoHorizontalScroll } from "./checkout-support";

// Each test makes its staff with `npm run staff:grant` (a process of its own) and signs in: on a
// machine shared with other runs that alone can take most of the default 30 s.
test.describe.configure({ timeout: 90_000 });

// Partners (/admin/partners): an admin sees a shopper's self-service token among the owners that are
// not partners, makes the account a partner, gives it a cap of its own and ends the partnership;
// the shopper's account page offers the refund scope exactly while the account is a partner.

test.use({ locale: "ru-RU" });

const root = path.resolve(import.meta.dirname, "../..");

test("an admin makes a shopper a partner and ends it; the account page offers refunds only meanwhile @phone", async ({
  page,
  browser,
  dbQuery,
}) => {
  // A plain account with a password: made by staff:grant, its role taken away again.
  const shopper = await createStaff("support", "shopper");
  await promisify(execFile)("npm", ["run", "--silent", "staff:revoke", "--", "--email", shopper.email], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL },
  });
  const [owner] = await dbQuery<{ id: string }>("SELECT id FROM users WHERE email = $1", [shopper.email]);
  await dbQuery(
    `INSERT INTO api_tokens (user_id, name, prefix, token_hash, scopes)
     VALUES ($1, 'my shop', 'gk_live_shop', encode(sha256(convert_to($2, 'UTF8')), 'hex'), ARRAY['gear:create'])`,
    [owner!.id, `e2e shop ${shopper.email}`],
  );

  const admin = await createStaff("admin");
  await signInAsStaff(page, admin, `/admin/partners?email=${encodeURIComponent(shopper.email)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Партнёры" })).toBeVisible();
  const card = page.getByRole("region", { name: new RegExp(shopper.email.replace(/[.+]/g, "\\$&")) });
  await expect(card).toContainText("не партнёр");
  await expect(card).toContainText("токены этого аккаунта не возвращают деньги");
  await expect(card.getByRole("row", { name: /my shop/ })).toContainText("gear:create");
  await expectAccessible(page, "the partners page with a shopper's token");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-partners-not-partner");

  // The shopper's account page, meanwhile, offers no refund scope.
  const shopperContext = await browser.newContext({ locale: "ru-RU" });
  const shopperPage = await shopperContext.newPage();
  await signInAsStaff(shopperPage, shopper, "/account");
  await expect(shopperPage.getByRole("checkbox", { name: /gifts:verify/ })).toBeVisible();
  await expect(shopperPage.getByRole("checkbox", { name: /intents:refund/ })).toHaveCount(0);
  await screenshot(shopperPage, "account-tokens-not-partner");

  await card.getByRole("button", { name: `Сделать партнёром ${shopper.email}` }).click();
  await expect(card).toContainText("Партнёр с");
  await expect(card).toContainText(`назначил ${admin.email}`);
  await expect(card).toContainText("Неоплаченных заказов, которые держат предмет или промокод: 0 из 1000.");

  await card.getByRole("spinbutton", { name: "Лимит неоплаченных заказов" }).fill("2500");
  await card.getByRole("button", { name: `Сохранить лимит: ${shopper.email}` }).click();
  await expect(card.getByRole("status").filter({ hasText: "Лимит сохранён." })).toBeVisible();
  await expect(card).toContainText("0 из 2500.");
  await expectAccessible(page, "the partners page with a partner");
  await expectNoHorizontalScroll(page);
  await screenshot(page, "admin-partners-partner");

  await shopperPage.reload();
  await expect(shopperPage.getByRole("checkbox", { name: /intents:refund/ })).toBeVisible();
  await screenshot(shopperPage, "account-tokens-partner");

  // An e-mail no account has is refused by name, and nothing is made.
  const make = page.getByRole("region", { name: "Сделать аккаунт партнёром" });
  await make.getByLabel("E-mail аккаунта").fill("nobody-here@example.com");
  await make.getByRole("button", { name: "Сделать партнёром" }).click();
  await expect(make).toContainText("Аккаунта с этой почтой нет.");

  await card.getByRole("button", { name: `Больше не партнёр: ${shopper.email}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Перестать считать ${shopper.email} партнёром?`);
  await dialog.getByRole("button", { name: "Перестать" }).click();
  await expect(card).toContainText("токены этого аккаунта не возвращают деньги");
  await shopperPage.reload();
  await expect(shopperPage.getByRole("checkbox", { name: /intents:refund/ })).toHaveCount(0);
  await shopperContext.close();

  const audit = await dbQuery<{ action: string; actor: string }>(
    "SELECT action, actor FROM audit_log WHERE target_type = 'user' AND target_id = $1 ORDER BY id",
    [owner!.id],
  );
  expect(audit.filter((a) => a.action.startsWith("partner."))).toEqual([
    { action: "partner.add", actor: admin.email },
    { action: "partner.hold_cap", actor: admin.email },
    { action: "partner.remove", actor: admin.email },
  ]);
});
