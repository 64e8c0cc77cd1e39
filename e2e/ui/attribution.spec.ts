import type { Page } from "@playwright/test";
import { expect, test, type DbQuery } from "../fixtures";
import { intentIdFromSummary } from "./checkout-support";

// A visit by a campaign link (utm_source / utm_medium) is remembered for 30 days, the last one
// winning, and recorded with the intents the shopper then creates, gifts and gear alike.

test.use({ locale: "ru-RU" });

async function buyGear(page: Page): Promise<string> {
  await page.goto("/gear");
  await page.getByRole("radio", { name: /^Sticker Capsule 2/ }).check();
  await page.getByLabel("SteamID64 аккаунта").fill("76561198000000001");
  await page.getByLabel("Трейд-ссылка").fill("https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12");
  await page.getByLabel("E-mail для чека").fill("gamer@example.com");
  await page.getByRole("button", { name: "Отложить предмет и оформить заказ" }).click();
  return intentIdFromSummary(page, "Перейти к оплате");
}

async function buyGift(page: Page): Promise<string> {
  await page.goto("/games/620");
  await page.getByLabel("Ссылка-приглашение друга").fill("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  await page.getByRole("combobox", { name: "Регион получателя" }).selectOption({ label: "Россия" });
  await page.getByLabel("E-mail для чека").fill("gamer@example.com");
  await page.getByRole("button", { name: "Оформить подарок" }).click();
  return intentIdFromSummary(page, "Перейти к оплате");
}

async function attributionOf(dbQuery: DbQuery, intentId: string): Promise<unknown> {
  const [row] = await dbQuery<{ attribution: unknown }>("SELECT attribution FROM intents WHERE id = $1", [intentId]);
  return row?.attribution;
}

test("a newsletter visit is recorded with the gear intent bought later in the visit", async ({ page, context, dbQuery }) => {
  await page.goto("/?utm_source=newsletter&utm_medium=email");
  const [cookie] = (await context.cookies()).filter((c) => c.name === "gk_attribution");
  expect(cookie).toMatchObject({ path: "/", sameSite: "Lax", httpOnly: false });
  // 30 days, give or take the test's own minute.
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(30 * 86_400_000 - 60_000);
  expect(cookie!.expires * 1000 - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);

  const intentId = await buyGear(page);
  expect(await attributionOf(dbQuery, intentId)).toEqual({ utm_source: "newsletter", utm_medium: "email" });
});

test("gift intents record it too, campaign included; a shared link with UTM parameters still works", async ({ page, dbQuery }) => {
  await page.goto("/gear?platform=570&utm_source=vk&utm_medium=cpc&utm_campaign=spring-sale");
  await expect(page).toHaveURL(/platform=570&utm_source=vk&utm_medium=cpc&utm_campaign=spring-sale$/);
  await expect(page.getByRole("radio", { name: "Dota 2" })).toBeChecked();

  const intentId = await buyGift(page);
  expect(await attributionOf(dbQuery, intentId)).toEqual({ utm_source: "vk", utm_medium: "cpc", utm_campaign: "spring-sale" });
});

test("last touch wins, and a direct visit in between does not erase it", async ({ page, dbQuery }) => {
  await page.goto("/?utm_source=newsletter&utm_medium=email&utm_campaign=spring");
  await page.goto("/games/620?utm_source=telegram&utm_medium=social");
  await page.goto("/");
  const giftId = await buyGift(page);
  // Nothing of the first campaign (utm_campaign=spring) mixes into the last one.
  expect(await attributionOf(dbQuery, giftId)).toEqual({ utm_source: "telegram", utm_medium: "social" });
  const gearId = await buyGear(page);
  expect(await attributionOf(dbQuery, gearId)).toEqual({ utm_source: "telegram", utm_medium: "social" });
});

test("no campaign, no attribution; a forged cookie is ignored", async ({ page, context, baseURL, dbQuery }) => {
  expect(await attributionOf(dbQuery, await buyGear(page))).toBeNull();
  await context.addCookies([{ name: "gk_attribution", value: encodeURIComponent('{"utm_source":"x","gclid":"y"}'), url: baseURL! }]);
  expect(await attributionOf(dbQuery, await buyGift(page))).toBeNull();
});
