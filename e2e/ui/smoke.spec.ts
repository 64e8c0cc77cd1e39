import { expect, expectAccessible, screenshot, test } from "../fixtures";

test("the API reference renders and is accessible @phone", async ({ page }) => {
  // The whole reference is one long page: axe over every node and a full-page screenshot at a
  // phone's pixel density (an 11 MB image) took 45 s alone on a machine shared with other runs.
  test.setTimeout(90_000);
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "/docs/api");
  await screenshot(page, "docs-api");
});
