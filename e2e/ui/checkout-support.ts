import { expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import pg from "pg";

// Shared by the checkout specs (gift, gear, attribution). The database is the one the server under
// test uses: E2E_DATABASE_URL, else DATABASE_URL.

export async function dbQuery<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
  const connectionString = process.env.E2E_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!connectionString) throw new Error("set E2E_DATABASE_URL to the database the server under test uses");
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** An amount as Intl writes it ("1 312,50 ₽"), matching whichever space the platform's ICU puts in. */
export function money(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s\\u00a0\\u202f]");
  return new RegExp(`^${escaped}$`);
}

/** No serious or critical axe violations on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
  expect(bad).toEqual([]);
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
  const id = href?.replace(/^\/pay\//, "") ?? "";
  expect(id).toMatch(INTENT_ID);
  return id;
}
