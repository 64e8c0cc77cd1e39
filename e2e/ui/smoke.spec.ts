import { expect, expectAccessible, screenshot, test } from "../fixtures";

test("the API reference renders and is accessible @phone", async ({ page }) => {
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "/docs/api");
  await screenshot(page, "docs-api");
});
