import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import type { StaffRole } from "@/lib/admin/permissions";
import { expect } from "./fixtures";

const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);

export interface StaffAccount {
  email: string;
  password: string;
  role: StaffRole;
}

/**
 * A new staff member made the way the README says: `npm run staff:grant`, against the database of
 * the app under test; the generated password is the command's last line.
 */
export async function createStaff(role: StaffRole, label: string = role): Promise<StaffAccount> {
  const email = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@staff.example.com`;
  const { stdout } = await run("npm", ["run", "--silent", "staff:grant", "--", "--email", email, "--role", role], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL },
  });
  const password = stdout.trim().split("\n").at(-1)!.trim();
  expect(password).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  return { email, password, role };
}

/** Signs in through the sign-in page and lands on `returnTo`. The page's language decides the labels. */
export async function signInAsStaff(page: Page, account: StaffAccount, returnTo = "/admin"): Promise<void> {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  await page.getByLabel(/^(E-mail|Эл\. почта)$/).fill(account.email);
  await page.getByLabel(/^(Пароль|Password)$/).fill(account.password);
  await page.getByRole("button", { name: /^(Войти|Sign in)$/ }).click();
  await expect(page).toHaveURL(new RegExp(`${returnTo.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`));
}
