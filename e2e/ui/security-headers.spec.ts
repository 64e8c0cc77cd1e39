import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { createGearIntent } from "./checkout-support";

// The pages work under their Content Security Policy: no violation reported, scripts hydrate (a
// client-side interaction works), and the payment form may still redirect to a partner's URL.

test.use({ locale: "en-GB" });

/** Records CSP violations the page reports, from before its first script runs. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __reportCspViolation(t: string): void }).__reportCspViolation(
        `${e.violatedDirective}: ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      );
    });
  });
  return violations;
}

async function expectStrictPolicy(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  const headers = response!.headers();
  const csp = headers["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce, `${path} has a nonce`).toBeTruthy();
  expect(csp).toContain("'strict-dynamic'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("unsafe-eval");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  // Plain http here: no HSTS.
  expect(headers["strict-transport-security"]).toBeUndefined();
  // Every script tag the server wrote carries this response's nonce. (Chunks Next's runtime adds
  // later carry none: 'strict-dynamic' trusts what a trusted script loads, and the violation
  // listener would report anything refused.)
  const html = await response!.text();
  const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(tags.length).toBeGreaterThan(0);
  expect(tags.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);
}

/** React ran in the page (its scripts were allowed): the heading is a hydrated element. */
async function expectHydrated(page: Page) {
  await expect
    .poll(() =>
      page
        .locator("h1")
        .first()
        .evaluate((h1) => Object.keys(h1).some((key) => key.startsWith("__reactFiber"))),
    )
    .toBe(true);
}

for (const path of ["/", "/games/620", "/gear", "/sign-in", "/sign-up", "/docs/api"]) {
  test(`${path} loads and hydrates without a violation`, async ({ page }) => {
    const violations = await watchViolations(page);
    await expectStrictPolicy(page, path);
    await page.waitForLoadState("networkidle");
    await expectHydrated(page);
    expect(violations).toEqual([]);
  });
}

test("the account page works for a signed-in shopper without a violation", async ({ page }) => {
  const violations = await watchViolations(page);
  const email = `csp-${Date.now().toString(36)}@example.com`;
  await page.goto("/sign-up?callbackUrl=%2Faccount");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account\?arrived=accountCreated$/);
  await expectStrictPolicy(page, "/account");
  await page.waitForLoadState("networkidle");
  await expectHydrated(page);
  expect(violations).toEqual([]);
});

test("the payment page pays and its form may redirect to the partner's https successUrl", async ({ page, request, baseURL }) => {
  const violations = await watchViolations(page);
  const intentId = await createGearIntent(request, baseURL!, {
    email: "csp@example.com",
    successUrl: "https://partner.example/orders/42?paid=1",
  });
  // Offline: the partner's site is played by the test. The browser checks form-action before this.
  await page.route("https://partner.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Partner</h1>" }),
  );
  await expectStrictPolicy(page, `/pay/${intentId}`);
  await expectHydrated(page);
  const csp = (await (await page.request.get(`/pay/${intentId}`)).headers())["content-security-policy"]!;
  expect(csp).toContain("form-action 'self' https:");
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page).toHaveURL("https://partner.example/orders/42?paid=1");
  await expect(page.getByRole("heading", { name: "Partner" })).toBeVisible();
  expect(violations).toEqual([]);
});

test("other pages keep form-action to the store itself, and no page can be framed", async ({ request }) => {
  const headers = (await request.get("/sign-in")).headers();
  expect(headers["content-security-policy"]).toContain("form-action 'self';");
  expect(headers["x-frame-options"]).toBe("DENY");
  // The API answers JSON without a page policy.
  const api = (await request.get("/api/v1/gifts/catalog")).headers();
  expect(api["content-security-policy"]).toBeUndefined();
  expect(api["x-content-type-options"]).toBe("nosniff");
});
