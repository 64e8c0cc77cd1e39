import { expect, type APIRequestContext, type Page } from "@playwright/test";

// Shared by the specs that buy something: the checkout forms (gift, gear, attribution) and the
// payment page (pay, security headers).

/** An amount as Intl writes it ("1 312,50 ₽"), matching whichever space the platform's ICU puts in. */
export function money(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s\\u00a0\\u202f]");
  return new RegExp(`^${escaped}$`);
}

/** Nothing sticks out sideways at the current viewport (a phone's 390 px). */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** Counts the shopper's POSTs to an /api/v1 endpoint, to prove a refused form sent nothing. */
export function countPosts(page: Page, path: string): { readonly count: number } {
  const counter = { count: 0 };
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === path) counter.count++;
  });
  return counter;
}

export const INTENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The intent id the success panel shows, from its "Proceed to payment" link. */
export async function intentIdFromSummary(page: Page, linkName: string | RegExp): Promise<string> {
  const href = await page.getByRole("link", { name: linkName }).getAttribute("href");
  // The API's paymentUrl: absolute, on the store's origin.
  const id = href ? new URL(href, "http://x").pathname.replace(/^\/pay\//, "") : "";
  expect(id).toMatch(INTENT_ID);
  return id;
}

/** A storefront session token, as the store's own forms get one. */
async function storefrontToken(request: APIRequestContext, baseURL: string): Promise<string> {
  const session = await request.post("/api/storefront/token", { headers: { origin: baseURL } });
  expect(session.ok()).toBe(true);
  return ((await session.json()) as { token: string }).token;
}

/** A gift of Portal 2 (620) to Kazakhstan, made as the game page's form makes it. */
export async function createGiftIntent(request: APIRequestContext, baseURL: string): Promise<string> {
  const created = await request.post("/api/v1/gifts/verify", {
    headers: { authorization: `Bearer ${await storefrontToken(request, baseURL)}` },
    data: {
      platform: "store-gift",
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "KZ" },
      email: "e2e@example.com",
      fee: "excluded",
    },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { intentId: string }).intentId;
}

/** A gear intent made through the public API with a storefront session token, as the store's own form makes it. */
export async function createGearIntent(request: APIRequestContext, baseURL: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await request.post("/api/v1/gear", {
    headers: { authorization: `Bearer ${await storefrontToken(request, baseURL)}` },
    data: { account: "76561198000000001", platform: "730", item: "sticker-capsule", email: "e2e@example.com", ...extra },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { intentId: string }).intentId;
}
