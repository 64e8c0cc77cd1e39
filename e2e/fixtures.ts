import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import pg from "pg";

export { expect };

/** Runs SQL against the database of the app under test, to check what a flow wrote or to set one up. */
export type DbQuery = <R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;

interface Fixtures {
  dbQuery: DbQuery;
}

export const test = base.extend<Fixtures>({
  baseURL: async ({}, provide) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error("E2E_BASE_URL is not set: run the specs through playwright.config.ts (its global setup starts the app)");
    await provide(url);
  },
  dbQuery: async ({}, provide) => {
    const connectionString = process.env.E2E_DATABASE_URL;
    if (!connectionString)
      throw new Error("E2E_DATABASE_URL is not set: run the specs through playwright.config.ts (its global setup starts the app)");
    const pool = new pg.Pool({ connectionString, max: 2 });
    await provide(async (text, values) => (await pool.query(text, values)).rows);
    await pool.end();
  },
});

interface AccessibilityCheck {
  /** Names the page in the failure message. */
  context?: string;
  /** Every rule axe runs by default (best practices and WCAG 2.2 too), not only the WCAG 2.1 A/AA ones. */
  allRules?: boolean;
}

/** axe-core on the current page: no serious or critical violations (WCAG 2.1 A/AA rules unless `allRules`). */
export async function expectAccessible(page: Page, check: string | AccessibilityCheck = {}): Promise<void> {
  const { context = "", allRules = false } = typeof check === "string" ? { context: check } : check;
  // A dynamic page's <title> comes from generateMetadata, which Next streams apart from the page's
  // content: after a client-side navigation (or a server action's refresh) the new content, which
  // the spec waited for, can be on screen a moment before the title is, and axe would then report a
  // document without one. The settled page, titled as a shopper's tab shows it, is the one to check;
  // a page that never gets a title still fails, here.
  await expect(page, `a page title${context ? ` on ${context}` : ""}`).toHaveTitle(/\S/);
  const axe = new AxeBuilder({ page });
  const results = await (allRules ? axe : axe.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])).analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = blocking.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join("; ")})`,
  );
  expect(summary, `axe violations${context ? ` on ${context}` : ""}`).toEqual([]);
}

/** A full-page screenshot kept as a test artifact under .data/e2e/screenshots/<project>/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const project = test.info().project.name;
  await page.screenshot({ path: `.data/e2e/screenshots/${project}/${name}.png`, fullPage: true });
}
