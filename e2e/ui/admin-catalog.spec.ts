import path from "node:path";
import { createStaff, signInAsStaff } from "../admin-support";
import { expect, expectAccessible, screenshot, test } from "../fixtures";

// Each test makes its staff with `npm run staff:grant` (a process of its own) and signs in: on a
// machine shared with other runs that alone can take most of the default 30 s.
test.describe.configure({ timeout: 60_000 });

// The back office's promo codes, gear stock and catalog, as the staff who use them. Each test makes
// its own code, item or game, so the specs running beside it (and the phone run) see nothing move.

const UPLOAD = path.resolve(import.meta.dirname, "../../tests/fixtures/appdetails-admin-upload.json");
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

test("a marketer creates a promo code, sees a taken code refused on its field, and disables it @phone", async ({ page, dbQuery }) => {
  const marketer = await createStaff("marketer");
  const code = `E2E${unique()}`;
  await signInAsStaff(page, marketer, "/admin/promo-codes");
  await expect(page.getByRole("heading", { level: 1, name: "Промокоды" })).toBeVisible();
  await expectAccessible(page, { allRules: true });
  await screenshot(page, "admin-promo-codes");

  await page.getByRole("link", { name: "Новый промокод" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Новый промокод" })).toBeVisible();
  await page.getByLabel("Код", { exact: true }).fill(code.toLowerCase());
  await page.getByLabel("Вид скидки").selectOption({ label: "Сумма, ₽" });
  await page.getByLabel("Размер").fill("150,50");
  await page.getByLabel("Действует на", { exact: true }).selectOption({ label: "подарки" });
  await page.getByLabel("Лимит использований").fill("10");
  await expectAccessible(page, { allRules: true });
  await screenshot(page, "admin-promo-code-new");
  await page.getByRole("button", { name: "Сохранить" }).click();

  await expect(page).toHaveURL(/\/admin\/promo-codes\?created=/);
  await expect(page.getByRole("status").filter({ hasText: `Промокод ${code} создан.` })).toBeVisible();
  const [row] = await dbQuery<{ id: number; kind: string; value: number; applies_to: string; max_uses: number }>(
    "SELECT id, kind, value, applies_to, max_uses FROM promo_codes WHERE code = $1",
    [code],
  );
  expect(row).toMatchObject({ kind: "fixed", value: 15050, applies_to: "gifts", max_uses: 10 });

  // The same code again: the form says so on the code field.
  await page.goto("/admin/promo-codes/new");
  await page.getByLabel("Код", { exact: true }).fill(code);
  await page.getByLabel("Размер").fill("5");
  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText(`Промокод ${code} уже есть. Придумайте другой.`)).toBeVisible();
  await expect(page.getByLabel("Код", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await page.goto(`/admin/promo-codes?q=${code}`);
  const listed = page.getByRole("row").filter({ hasText: code });
  await expect(listed).toContainText("150,50");
  await expect(listed).toContainText("действует");
  await listed.getByRole("button", { name: `Отключить промокод ${code}` }).click();
  await expect(listed).toContainText("отключён");
  await expect(listed.getByRole("button", { name: `Включить промокод ${code}` })).toBeVisible();
  await screenshot(page, "admin-promo-code-disabled");

  // Its own page: the terms in the form, the limit raised.
  await listed.getByRole("link", { name: code }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/promo-codes/${row!.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Промокод ${code}` })).toBeVisible();
  await expect(page.getByLabel("Лимит использований")).toHaveValue("10");
  await page.getByLabel("Лимит использований").fill("20");
  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Сохранено." })).toBeVisible();
  await expectAccessible(page, { allRules: true });
  await screenshot(page, "admin-promo-code-edit");

  const audit = await dbQuery<{ action: string; actor: string }>(
    "SELECT action, actor FROM audit_log WHERE target_type = 'promo_code' AND target_id = $1 ORDER BY id",
    [String(row!.id)],
  );
  expect(audit).toEqual([
    { action: "promo_code.create", actor: marketer.email },
    { action: "promo_code.disable", actor: marketer.email },
    { action: "promo_code.update", actor: marketer.email },
  ]);
});

test("an operator adds an item and adjusts its stock; a cut below zero is refused @phone", async ({ page, dbQuery }) => {
  const operator = await createStaff("operator");
  const key = `e2e-${unique().toLowerCase()}`;
  const title = `E2E Crate ${key.slice(4)}`;
  await signInAsStaff(page, operator, "/admin/gear");
  await expect(page.getByRole("heading", { level: 1, name: "Предметы и остатки" })).toBeVisible();

  const add = page.getByRole("region", { name: "Добавить предмет" });
  await add.getByLabel("App id игры").fill("570");
  await add.getByLabel("Ключ предмета").fill(key);
  await add.getByLabel("Название").fill(title);
  await add.getByLabel("Цена, ₽").fill("99");
  await add.getByLabel("Остаток").fill("5");
  await add.getByRole("button", { name: "Добавить" }).click();
  await expect(add.getByText("Предмет добавлен.")).toBeVisible();

  await page.goto(`/admin/gear?q=${key}`);
  const row = page.getByRole("row").filter({ hasText: key });
  await expect(row.getByRole("cell").nth(3)).toHaveText("5");
  await row.getByLabel(`Количество для «${title}»`).fill("-7");
  await row.getByRole("button", { name: `Применить к «${title}»` }).click();
  await expect(row.getByText(`Остаток «${title}» не может быть меньше 0`)).toBeVisible();
  await row.getByLabel(`Количество для «${title}»`).fill("3");
  await row.getByRole("button", { name: `Применить к «${title}»` }).click();
  await expect(row.getByText(`Остаток «${title}»: 8.`)).toBeVisible();
  await expect(row.getByRole("cell").nth(3)).toHaveText("8");
  await row.getByLabel(`Как изменить остаток «${title}»`).selectOption({ label: "Установить" });
  await row.getByLabel(`Количество для «${title}»`).fill("2");
  await row.getByRole("button", { name: `Применить к «${title}»` }).click();
  await expect(row.getByRole("cell").nth(3)).toHaveText("2");
  await expectAccessible(page, { allRules: true });
  await screenshot(page, "admin-gear");

  const audit = await dbQuery<{ action: string; before: unknown; after: unknown }>(
    `SELECT action, before, after FROM audit_log
     WHERE target_type = 'gear_item' AND target_id = (SELECT id::text FROM gear_items WHERE item = $1) ORDER BY id`,
    [key],
  );
  expect(audit).toEqual([
    { action: "gear.create", before: null, after: expect.objectContaining({ item: key, price: 9900, stock: 5 }) },
    { action: "gear.stock", before: { stock: 5 }, after: { stock: 8 } },
    { action: "gear.stock", before: { stock: 8 }, after: { stock: 2 } },
  ]);
});

test("an admin uploads a catalog file, sees its errors per game, hides the new game and the store no longer lists it", async ({
  page,
  dbQuery,
}) => {
  const admin = await createStaff("admin");
  await signInAsStaff(page, admin, "/admin/catalog");
  await expect(page.getByRole("heading", { level: 1, name: "Каталог" })).toBeVisible();

  const upload = page.getByRole("region", { name: "Загрузить файл каталога" });
  await upload.getByLabel("Файл").setInputFiles(UPLOAD);
  await upload.getByRole("button", { name: "Загрузить" }).click();
  await expect(upload.getByText("Записано игр: 1 из 1")).toBeVisible();
  await expect(upload.getByText(/Новых игр: [01], обновлено: [01], с ошибками: 2\./)).toBeVisible();
  const errors = upload.getByRole("region", { name: "Ошибки по играм" });
  await expect(errors.getByRole("row").filter({ hasText: "3999002" })).toContainText("Неверные данные: name.");
  await expect(errors.getByRole("row").filter({ hasText: "3999003" })).toContainText("магазин ничего не вернул по этой игре");
  await expectAccessible(page, { allRules: true });
  await screenshot(page, "admin-catalog-import");

  // The store lists the new game.
  await page.goto("/?q=Zephyr%20Lantern");
  await expect(page.getByRole("link", { name: /Zephyr Lantern Odyssey/ }).first()).toBeVisible();

  await page.goto("/admin/catalog?q=3999001");
  const row = page.getByRole("row").filter({ hasText: "Zephyr Lantern Odyssey" });
  await row.getByRole("button", { name: "Скрыть «Zephyr Lantern Odyssey» из магазина" }).click();
  await expect(row).toContainText("скрыта");
  await screenshot(page, "admin-catalog-hidden");

  await page.goto("/?q=Zephyr%20Lantern");
  await expect(page.getByText("Ничего не нашлось")).toBeVisible();
  expect((await page.goto("/games/3999001"))?.status()).toBe(404);

  await page.goto("/admin/catalog?q=3999001");
  await page.getByRole("button", { name: "Вернуть «Zephyr Lantern Odyssey» в магазин" }).click();
  await expect(page.getByRole("row").filter({ hasText: "Zephyr Lantern Odyssey" })).toContainText("показана");
  expect((await page.goto("/games/3999001"))?.status()).toBe(200);

  const audit = await dbQuery<{ action: string }>("SELECT action FROM audit_log WHERE actor = $1 ORDER BY id", [admin.email]);
  expect(audit.map((a) => a.action)).toEqual(["catalog.import", "game.hide", "game.show"]);
});

test("an admin uploads a file of junk and sees the first problems and how many there were of each @phone", async ({ page }) => {
  const admin = await createStaff("admin");
  await signInAsStaff(page, admin, "/admin/catalog");
  const upload = page.getByRole("region", { name: "Загрузить файл каталога" });
  const junk = `${"x\n".repeat(100_000)}${"[1]\n".repeat(3)}`;
  await upload.getByLabel("Файл").setInputFiles({ name: "junk.jsonl", mimeType: "application/json", buffer: Buffer.from(junk) });
  await upload.getByRole("button", { name: "Загрузить" }).click();
  await expect(upload.getByText(/^Новых игр: 0, обновлено: 0, с ошибками: 100\s003\.$/)).toBeVisible();
  const errors = upload.getByRole("region", { name: "Ошибки по играм" });
  await expect(errors.getByRole("row")).toHaveCount(21);
  await expect(errors.getByRole("row").nth(1)).toContainText("строка 1");
  await expect(errors.getByRole("row").nth(20)).toContainText("строка 20");
  await expect(errors.getByText(/^Показаны первые 20 из 100\s003\.$/)).toBeVisible();
  await expect(errors.getByRole("listitem")).toHaveText([/^не JSON: 100\s000$/, "не объект с app id в ключах: 3"]);
  await expectAccessible(page, { allRules: true });
  await screenshot(page, "admin-catalog-import-junk");
});

test("an admin edits a game's gift regions and sees each region's verdict @phone", async ({ page }) => {
  const admin = await createStaff("admin");
  await signInAsStaff(page, admin, "/admin/catalog/620");
  await expect(page.getByRole("heading", { level: 1, name: /Portal 2 \(620\)/ })).toBeVisible();
  const verdicts = page.getByRole("region", { name: "Можно ли подарить сейчас" });
  await expect(verdicts.getByRole("row").filter({ hasText: "RU" })).toContainText("можно");
  await expectAccessible(page, { allRules: true });
  await screenshot(page, "admin-catalog-game");
  // Saving the same regions changes nothing a parallel spec could notice, and is audited all the same.
  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.getByText("Регионы сохранены.")).toBeVisible();
  await page.goto("/admin/catalog");
  await expectAccessible(page, { allRules: true });
  await screenshot(page, "admin-catalog");
});

test("a marketer opening the stock page gets the 403 page @phone", async ({ page }) => {
  const marketer = await createStaff("marketer");
  await signInAsStaff(page, marketer, "/admin/promo-codes");
  const response = await page.goto("/admin/gear");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "Нет доступа" })).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await screenshot(page, "admin-gear-forbidden");
});
