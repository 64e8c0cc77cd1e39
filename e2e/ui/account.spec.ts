import type { Page } from "@playwright/test";
import { createHmac } from "node:crypto";
import { startReceiver } from "@/tests/support/receiver";
import { expect, expectAccessible, test } from "../fixtures";

// One shopper per run, so the spec can run against any database, again and again.
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const email = `shopper-${run}@example.com`;
const password = "correct horse battery";

test.use({ locale: "en-GB" });
test.describe.configure({ mode: "serial" });

function expectNoSeriousA11yViolations(page: Page) {
  return expectAccessible(page, page.url());
}

async function signIn(page: Page, withPassword = password) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(withPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a guest is sent to sign in and comes back to the account page after signing up", async ({ page }) => {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("link", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign up" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The shared schema speaks before the server is asked.
  await page.getByLabel("E-mail").fill("not an address");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("That does not look like an e-mail address: it should be like name@example.com.")).toBeVisible();
  await expect(page.getByText("That password is too short: use at least 10 characters.")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toBeFocused();
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
  // The sign-in's CSRF token is asked for while the account is being made, not after: one round trip less.
  const seen: Record<string, number> = {};
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/auth/csrf") seen.csrfAsked ??= Date.now();
  });
  page.on("response", (r) => {
    if (r.request().method() === "POST" && r.request().headers()["next-action"]) seen.accountMade ??= Date.now();
  });
  await page.getByRole("button", { name: "Create account" }).click();

  // Lands where it was going, and says that it worked, in a status region screen readers announce.
  await expect(page).toHaveURL(/\/account\?arrived=accountCreated$/);
  await expect(page.getByRole("status").filter({ hasText: "Done: your account is created and you are signed in." })).toBeVisible();
  expect(seen.csrfAsked).toBeLessThan(seen.accountMade!);
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();
  await expect(page.getByText("No tokens yet. Create your first one with the “New token” form.")).toBeVisible();
  await expect(page.getByText("No orders yet.", { exact: false })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("the account page puts orders first: whom for, the region and the whole campaign, in plain words", async ({ page }) => {
  await page.goto("/sign-in?callbackUrl=%2Fgames%2F620%3Futm_source%3Dvk%26utm_medium%3Dcpc%26utm_campaign%3Dspring-sale");
  await signIn(page);
  await page.getByLabel("Your friend's invite link").fill("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  await page.getByRole("combobox", { name: "Recipient's region" }).selectOption({ label: "Kazakhstan" });
  await page.getByRole("button", { name: "Create gift order" }).click();
  await expect(page.getByRole("link", { name: "Proceed to payment" })).toBeVisible();

  await page.goto("/account");
  await expect(page.getByRole("main").getByRole("heading", { level: 2 }).first()).toHaveText("Your orders");
  const order = page.getByRole("region", { name: "Your orders" }).getByRole("listitem").first();
  await expect(order).toContainText("Recipient (friend's account)76561198853767868");
  await expect(order).toContainText("RegionKazakhstan");
  await expect(order).toContainText("source: vk · channel: cpc · campaign: spring-sale");
  await expect(order).toContainText("Placedon the GiftKey site");
  await expect(order).not.toContainText("utm_");
  await expect(order).not.toContainText("Notifications to your server");
  await expectAccessible(page, { context: "the account page with an order", allRules: true });
});

test("the new token stays whole beside Copy at a laptop's 1366 px", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/sign-in?callbackUrl=%2Faccount");
  await signIn(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Laptop");
  await page.getByRole("button", { name: "Create token" }).click();
  const box = page.getByRole("textbox", { name: "Your new token" });
  const token = await box.inputValue();
  await page.getByRole("button", { name: "Copy: Your new token" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  // Every character shows: nothing scrolled away sideways or below, and the box keeps its width.
  const fit = await box.evaluate((el: HTMLTextAreaElement) => ({
    width: el.getBoundingClientRect().width,
    hidden: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
  }));
  expect(fit.hidden).toBe(false);
  expect(fit.width).toBeGreaterThan(250);
  expect(token).toMatch(/^gk_live_[A-Za-z0-9]{43}$/);
  await expectAccessible(page, { context: "the account page with a new token", allRules: true });
});

test("sign-up refuses an e-mail that is taken, in any letter case", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByLabel("E-mail").fill(email.toUpperCase());
  await page.getByLabel("Password", { exact: true }).fill("another long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("There is already an account with this e-mail. Sign in, or use another address.")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-up$/);
});

test("sign in, create a token, see it once, copy it, use it, revoke it", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/sign-in?callbackUrl=%2Faccount");
  await signIn(page, "not my password");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await signIn(page);
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();

  await page.getByRole("textbox", { name: "Name", exact: true }).fill("CI bot");
  await page.getByRole("checkbox", { name: /gifts:verify/ }).check();
  await page.getByLabel("Expires").selectOption({ label: "in 30 days" });
  await page.getByRole("button", { name: "Create token" }).click();

  const created = page.getByRole("heading", { name: "Token “CI bot” created" });
  await expect(created).toBeFocused();
  const token = await page.getByRole("textbox", { name: "Your new token" }).inputValue();
  expect(token).toMatch(/^gk_live_[A-Za-z0-9]{43}$/);

  await page.getByRole("button", { name: "Copy: Your new token" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  const catalog = await request.get("/api/v1/gifts/catalog?limit=1", { headers: { Authorization: `Bearer ${token}` } });
  expect(catalog.status()).toBe(200);

  // The list shows the new token by name and prefix; the whole token is gone once dismissed or reloaded.
  const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /CI bot/ }) });
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).toContainText("catalog:read");
  await expect(row).toContainText("gifts:verify");
  await expect(row).toContainText("Active");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Token “CI bot” created" })).toHaveCount(0);
  expect(await page.content()).not.toContain(token);

  // Escape leaves the confirmation without revoking; the confirm button revokes.
  await row.getByRole("button", { name: "Revoke token “CI bot”" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke token “CI bot”?" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect((await request.get("/api/v1/gifts/catalog?limit=1", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);

  await row.getByRole("button", { name: "Revoke token “CI bot”" }).click();
  await dialog.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Token “CI bot” revoked." })).toBeVisible();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);

  // The instance that revoked forgets its cached lookup at once: no 5-second grace.
  const after = await request.get("/api/v1/gifts/catalog?limit=1", { headers: { Authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
  expect(await after.json()).toMatchObject({ code: 401, message: "the bearer token has been revoked" });
  await expectNoSeriousA11yViolations(page);
});

test("a shopper's token form offers no refund scope, and the server refuses it when the form is bypassed", async ({ page }) => {
  await page.goto("/sign-in?callbackUrl=%2Faccount");
  await signIn(page);
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /gifts:verify/ })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /intents:refund/ })).toHaveCount(0);
  await expect(page.getByText("Refunds through the API are for partner accounts", { exact: false })).toBeVisible();

  // What a hand-made request would send: the form's own call with the scope added.
  await page.route("**/account", async (route) => {
    const sent = route.request().postData() ?? "";
    if (route.request().method() === "POST" && sent.includes("Refund bot"))
      await route.continue({ postData: sent.replace('"scopes":["catalog:read"]', '"scopes":["catalog:read","intents:refund"]') });
    else await route.continue();
  });
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Refund bot");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Only partner accounts may have tokens that refund" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /Refund bot/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test("the callback signing secret is masked until revealed, and copyable", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/sign-in?callbackUrl=%2Faccount%23callbacks");
  await signIn(page);
  const section = page.getByRole("region", { name: "Callback signing secret" });
  await expect(section).toContainText("Secret hidden");
  await expect(section).not.toContainText(/whsec_[A-Za-z0-9+/]{8}/);
  await section.getByRole("button", { name: "Reveal the signing secret" }).click();
  const value = await section.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(value).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await section.getByRole("button", { name: "Copy: Signing secret" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  await section.getByRole("button", { name: "Hide the signing secret" }).click();
  await expect(section.getByRole("textbox")).toHaveCount(0);
});

test("webhooks: register an endpoint for a loopback receiver, send a test event, see it in the log, resend it", async ({ page }) => {
  // A real receiver on 127.0.0.1, which the server under test opens with WEBHOOK_ALLOW_HOSTS.
  const receiver = await startReceiver();
  try {
    await page.goto("/sign-in?callbackUrl=%2Faccount%23webhooks");
    await signIn(page);
    const section = page.getByRole("region", { name: "Webhooks" });
    const urlField = section.getByRole("textbox", { name: "Endpoint URL" });

    // A cloud metadata address is refused by the server, beside the field, as a callbackUrl would be.
    await urlField.fill("https://169.254.169.254/latest/meta-data");
    await section.getByRole("button", { name: "Add endpoint" }).click();
    await expect(section.getByText("Use an https:// URL on a public server: local and private addresses are refused.")).toBeVisible();
    await expect(urlField).toBeFocused();
    await expect(urlField).toHaveAttribute("aria-invalid", "true");

    const url = `${receiver.url}/hooks`;
    await urlField.fill(url);
    await section.getByRole("checkbox", { name: /intent\.expired/ }).uncheck();
    await section.getByRole("button", { name: "Add endpoint" }).click();
    await expect(section.getByRole("heading", { name: `Endpoint ${url} added` })).toBeFocused();
    const secret = await section.getByRole("textbox", { name: "Endpoint signing secret" }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const item = section.getByRole("listitem").filter({ has: page.getByRole("heading", { name: url }) });
    await expect(item).toContainText("intent.delivery_failed");
    await expect(item).not.toContainText("intent.expired");
    await item.getByRole("button", { name: `Send a test event to ${url}` }).click();
    await expect(item.getByRole("status").filter({ hasText: "Test event queued." })).toBeVisible();

    // Signed with the endpoint's own secret, the Standard Webhooks way (lib/webhooks/signature.ts is server-only).
    const [first] = await receiver.waitForRequests(1);
    const h = first!.headers;
    const expected = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
      .update(`${h["webhook-id"]}.${h["webhook-timestamp"]}.${first!.body}`)
      .digest("base64");
    expect(String(h["webhook-signature"]).split(" ")).toContain(`v1,${expected}`);
    expect(JSON.parse(first!.body)).toMatchObject({ type: "webhook.test" });

    await expect(async () => {
      await page.reload();
      await expect(item).toContainText("HTTP 204", { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(item).toContainText("webhook.test");
    await expect(item).toContainText("delivered");
    await expectNoSeriousA11yViolations(page);

    // Resend: the same bytes under the same webhook-id, so a receiver that dedupes sees one message.
    await item.getByRole("button", { name: "Resend webhook.test (1)" }).click();
    await expect(item.getByRole("status").filter({ hasText: "Queued again." })).toBeVisible();
    const [, again] = await receiver.waitForRequests(2);
    expect(again!.body).toBe(first!.body);
    expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);

    // Disabled, then back on; the keyboard reaches every control of the endpoint.
    await item.getByRole("button", { name: `Disable ${url}` }).click();
    await expect(item).toContainText("disabled: events wait in the queue");
    await item.getByRole("button", { name: `Enable ${url}` }).focus();
    await page.keyboard.press("Enter");
    await expect(item.getByRole("button", { name: `Disable ${url}` })).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("webhooks: test events past the endpoint's limit are refused with how long to wait", async ({ page }) => {
  // Ten a minute per endpoint, in a window aligned to the clock: the clicks must not straddle its end.
  const intoMinute = (Date.now() / 1000) % 60;
  if (intoMinute > 30) await new Promise((r) => setTimeout(r, (61 - intoMinute) * 1000));
  const receiver = await startReceiver();
  try {
    await page.goto("/sign-in?callbackUrl=%2Faccount%23webhooks");
    await signIn(page);
    const section = page.getByRole("region", { name: "Webhooks" });
    const url = `${receiver.url}/limited`;
    await section.getByRole("textbox", { name: "Endpoint URL" }).fill(url);
    await section.getByRole("button", { name: "Add endpoint" }).click();
    await expect(section.getByRole("heading", { name: `Endpoint ${url} added` })).toBeFocused();
    const item = section.getByRole("listitem").filter({ has: page.getByRole("heading", { name: url }) });
    const send = item.getByRole("button", { name: `Send a test event to ${url}` });
    for (let i = 0; i < 10; i++) {
      await send.click();
      await expect(item.getByRole("status").filter({ hasText: "Test event queued." })).toBeVisible();
      await expect(send).toBeEnabled();
    }
    await send.click();
    await expect(item.getByRole("alert")).toHaveText(
      /^An endpoint gets at most 10 test events and resends a minute\. Try again in \d+ seconds?\.$/,
    );
    await expect(item.getByText("Test event queued.")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await item.scrollIntoViewIfNeeded();
    await page.screenshot({ path: ".data/e2e/screenshots/desktop/account-webhook-limit.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await item.getByRole("alert").scrollIntoViewIfNeeded();
    await page.screenshot({ path: ".data/e2e/screenshots/phone/account-webhook-limit.png" });
  } finally {
    await receiver.close();
  }
});

test("signing in and out hands the store's own pages a token for the new owner", async ({ page }) => {
  await page.goto("/sign-in");
  // A guest's storefront token from before signing in must not be reused afterwards.
  await page.evaluate(() =>
    sessionStorage.setItem("gk.storefront-token", JSON.stringify({ token: "guest", expiresAt: "2999-01-01T00:00:00Z", owner: "guest" })),
  );
  await signIn(page);
  await expect(page).toHaveURL(/\/account$/);
  expect(await page.evaluate(() => sessionStorage.getItem("gk.storefront-token"))).toBeNull();
  const issued = await page.evaluate(async () => (await fetch("/api/storefront/token", { method: "POST" })).json());
  expect(issued.owner).toBe("user");

  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  const asGuest = await page.evaluate(async () => (await fetch("/api/storefront/token", { method: "POST" })).json());
  expect(asGuest.owner).toBe("guest");
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount$/);
});

test("keyboard only: sign in, create a token and revoke it", async ({ page }) => {
  await page.goto("/sign-in?callbackUrl=%2Faccount");
  await page.getByLabel("E-mail").focus();
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();

  // Tab order reaches the form from the top of the page.
  const name = page.getByRole("textbox", { name: "Name", exact: true });
  for (let i = 0; i < 30 && !(await name.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(name).toBeFocused();
  await page.keyboard.type("Keyboard token");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: /catalog:read/ })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  await expect(page.getByRole("checkbox", { name: /gifts:verify/ })).toBeChecked();
  await name.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Token “Keyboard token” created" })).toBeFocused();

  const revoke = page.getByRole("button", { name: "Revoke token “Keyboard token”" });
  await revoke.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Revoke token “Keyboard token”?" });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Yes, revoke" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Your tokens" })).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "Token “Keyboard token” revoked." })).toBeVisible();
});

test.describe("in Russian", () => {
  test.use({ locale: "ru-RU" });

  test("the sign-in page and its errors are Russian", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { level: 1, name: "Вход" })).toBeVisible();
    await page.getByLabel("Эл. почта").fill(email);
    await page.getByLabel("Пароль", { exact: true }).fill("неверный пароль");
    await page.getByRole("button", { name: "Войти" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Неверная почта или пароль.");
    await expectNoSeriousA11yViolations(page);
  });
});

for (const width of [390, 1280]) {
  test(`no sideways scrolling at ${width} px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/sign-in", "/sign-up"]) {
      await page.goto(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
      await testInfo.attach(`${path.slice(1)}-${width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    }
    await page.goto("/sign-in?callbackUrl=%2Faccount");
    await signIn(page);
    await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), "/account").toBe(true);
    await testInfo.attach(`account-${width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  });
}

test("sign-up refuses a trivial or common password with a message in the visitor's language", async ({ page, browser }) => {
  await page.goto("/sign-up");
  await page.getByLabel("E-mail").fill(`weak-${run}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("aaaaaaaaaa");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(
    page.getByText("That password is too simple: a repeat or a run (aaaa, 1234, abc, keys in a row).", { exact: false }),
  ).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  // A walk down the keyboard, which a hand-made list once let through.
  await page.getByLabel("Password", { exact: true }).fill("zaq1xsw2cde3");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("That password is too common", { exact: false })).toBeVisible();

  const russian = await browser.newContext({ locale: "ru-RU" });
  const ru = await russian.newPage();
  await ru.goto("/sign-up");
  await ru.getByLabel("Эл. почта").fill(`weak-${run}@example.com`);
  await ru.getByLabel("Пароль", { exact: true }).fill("Password2024!");
  await ru.getByRole("button", { name: "Создать аккаунт" }).click();
  await expect(ru.getByText("Этот пароль слишком распространён", { exact: false })).toBeVisible();
  await russian.close();
});

// Last: it changes the shopper's password.
test("changing the password: rules and the current password are checked, other sessions end, the old password stops working", async ({
  page,
  browser,
}) => {
  await page.goto("/sign-in?callbackUrl=%2Faccount");
  await signIn(page);
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  // A second browser signed in as the same shopper: its session must end with the change.
  const other = await browser.newContext({ locale: "en-GB" });
  const otherPage = await other.newPage();
  await otherPage.goto("/sign-in?callbackUrl=%2Faccount");
  await signIn(otherPage);
  await expect(otherPage.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();

  const section = page.getByRole("region", { name: "Password" });
  const newPassword = "a fresh phrase of mine";
  await section.getByLabel("Current password").fill("not my password");
  await section.getByLabel("New password").fill(newPassword);
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByText("The current password is wrong.")).toBeVisible();
  await expect(section.getByLabel("Current password")).toBeFocused();

  await section.getByLabel("Current password").fill(password);
  await section.getByLabel("New password").fill("password123");
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByText("That password is too common", { exact: false })).toBeVisible();

  await section.getByLabel("New password").fill(newPassword);
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/account\?notice=passwordChanged#password$/);
  await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount$/);
  await signIn(otherPage);
  await expect(otherPage.getByRole("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await signIn(otherPage, newPassword);
  await expect(otherPage.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await other.close();
});

test("signing out ends the session even for a copy of its cookie", async ({ page, browser }) => {
  await page.goto("/sign-in?callbackUrl=%2Faccount");
  await signIn(page, "a fresh phrase of mine");
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  const copy = await browser.newContext({ locale: "en-GB", storageState: await page.context().storageState() });
  const copied = await copy.newPage();
  await copied.goto("/account");
  await expect(copied.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();

  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await copied.goto("/account");
  await expect(copied).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount$/);
  await copy.close();
});
