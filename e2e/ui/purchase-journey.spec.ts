import { expect, test } from "../fixtures";

// The whole way a shopper goes: a checkout form, on to the payment page, then Pay or Decline, and
// the store's result page; the database says what happened.

test.use({ locale: "ru-RU" });

test("a gift: the game page's form, the payment page, Pay, and the paid result @phone", async ({ page, dbQuery }) => {
  await page.goto("/games/620");
  await page.getByLabel("Ссылка-приглашение друга").fill("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  await page.getByRole("combobox", { name: "Регион получателя" }).selectOption({ label: "Казахстан" });
  await page.getByLabel("E-mail для чека").fill("journey@example.com");
  await page.getByRole("button", { name: "Оформить подарок" }).click();

  await page.getByRole("link", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/pay\/[0-9a-f-]{36}$/);
  const intentId = /\/pay\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  await expect(page.getByRole("heading", { level: 1, name: "Оплата заказа" })).toBeVisible();
  await expect(page.getByText("Portal 2", { exact: false }).first()).toBeVisible();
  await page.getByRole("button", { name: /^Оплатить/ }).click();

  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/result$`));
  await expect(page.getByRole("heading", { name: "Оплачено" })).toBeVisible();
  const [intent] = await dbQuery<{ status: string; paid: boolean }>(
    "SELECT status, paid_at IS NOT NULL AS paid FROM intents WHERE id = $1",
    [intentId],
  );
  expect(intent).toEqual({ status: "paid", paid: true });
});

test("gear: the gear page's form, the payment page, Decline, and the canceled result with the unit back", async ({ page, dbQuery }) => {
  await page.goto("/gear");
  await page.getByRole("radio", { name: /^AK-47 \| Redline \(Field-Tested\)/ }).check();
  await page.getByLabel("SteamID64 аккаунта").fill("76561198000000001");
  await page.getByLabel("Трейд-ссылка").fill("https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12");
  await page.getByLabel("E-mail для чека").fill("journey@example.com");
  await page.getByRole("button", { name: "Отложить предмет и оформить заказ" }).click();

  await page.getByRole("link", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/pay\/[0-9a-f-]{36}$/);
  const intentId = /\/pay\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  const live = async () =>
    (
      await dbQuery<{ n: number }>(
        `SELECT count(*)::int AS n FROM intents i JOIN gear_items g ON g.id = i.gear_item_id
       WHERE g.item = 'ak47-redline' AND i.status = 'requires_payment' AND i.expires_at > now() AND i.id = $1`,
        [intentId],
      )
    )[0]!.n;
  expect(await live()).toBe(1);
  await page.getByRole("link", { name: "Отказаться от оплаты" }).click();
  await page.getByRole("button", { name: "Да, отказаться" }).click();

  await expect(page).toHaveURL(new RegExp(`/pay/${intentId}/result$`));
  await expect(page.getByRole("heading", { name: "Оплата отменена" })).toBeVisible();
  const [intent] = await dbQuery<{ status: string }>("SELECT status FROM intents WHERE id = $1", [intentId]);
  expect(intent).toEqual({ status: "canceled" });
  // The reservation no longer holds the unit.
  expect(await live()).toBe(0);

  // Back to the items: the form as the shopper left it, not a way to pay the declined order.
  await page.getByRole("link", { name: "Вернуться к игровым предметам" }).click();
  await expect(page.getByLabel("SteamID64 аккаунта")).toHaveValue("76561198000000001");
  await expect(page.getByRole("region", { name: "Заказ оформлен — осталось оплатить" })).toHaveCount(0);
});
