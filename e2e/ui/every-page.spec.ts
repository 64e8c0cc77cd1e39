import { expect, expectAccessible, screenshot, test } from "../fixtures";

// Every page a shopper can reach, at desktop and phone width, in Russian and English: axe finds no
// serious or critical problem, nothing scrolls sideways, and a screenshot is kept as an artifact
// (.data/e2e/screenshots/<desktop|phone>/).

const pages = [
  { name: "catalog", path: "/", heading: /./ },
  { name: "catalog-filtered", path: "/?genre=RPG&category=specials", heading: /./ },
  { name: "catalog-empty", path: "/?q=zzzzqqqq", heading: /./ },
  { name: "game", path: "/games/620", heading: "Portal 2" },
  { name: "game-discounted", path: "/games/1091500", heading: /Cyberpunk/ },
  { name: "game-coming-soon", path: "/games/999990", heading: /./ },
  { name: "gear", path: "/gear", heading: /./ },
  { name: "sign-in", path: "/sign-in", heading: /./ },
  { name: "sign-up", path: "/sign-up", heading: /./ },
  { name: "confirm-email-invalid", path: "/confirm-email?token=not-a-token", heading: /./ },
  { name: "api-docs", path: "/docs/api", heading: /./ },
  { name: "not-found", path: "/no-such-page", heading: /./ },
  // A path that does not percent-decode: the store's 400 page (lib/http/path-guard.ts).
  { name: "bad-request", path: "/games/%FF", heading: /./ },
];

for (const locale of ["ru", "en"] as const) {
  test.describe(`in ${locale === "ru" ? "Russian" : "English"}`, () => {
    test.use({ locale: locale === "ru" ? "ru-RU" : "en-GB" });

    for (const p of pages) {
      test(`${p.name} @phone`, async ({ page }) => {
        // The API reference is one long page: axe alone takes 20-35 s on a busy 2-core machine.
        test.slow(p.name === "api-docs");
        await page.goto(p.path);
        await expect(page.getByRole("heading", { level: 1, name: p.heading }).first()).toBeVisible();
        await expect(page.locator("html")).toHaveAttribute("lang", p.name === "api-docs" ? /ru|en/ : locale);
        await expectAccessible(page, p.path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${p.path} scrolls sideways`).toBeLessThanOrEqual(0);
        await screenshot(page, `${p.name}-${locale}`);
      });
    }
  });
}

test.describe("signed in", () => {
  test.use({ locale: "en-GB" });

  test("the account page of a new shopper @phone", async ({ page }) => {
    const email = `every-page-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
    await page.goto("/sign-up");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/account\?arrived=accountCreated$/);
    await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
    await expectAccessible(page, "/account");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "/account scrolls sideways").toBeLessThanOrEqual(0);
    await screenshot(page, "account-en");
  });
});
