import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SECTIONS, can, STAFF_ROLES, type StaffRole } from "@/lib/admin/permissions";
import { hashPassword } from "@/lib/auth/password";
import { Browser } from "./browser";
import { appQuery } from "./support";

// The permission table, page by page, on the real server: every back-office section opened as a
// guest, a shopper and each staff role. The server answers 403 (its page) for a missing permission
// and never the data; a guest is sent to sign in and back.

const PASSWORD = "back office test password 1";
type Viewer = StaffRole | "shopper";
const browsers = new Map<Viewer, Browser>();
const emails = new Map<Viewer, string>();

async function account(viewer: Viewer): Promise<Browser> {
  const email = `${viewer}-${crypto.randomBytes(4).toString("hex")}@perm.example.com`;
  const [user] = await appQuery<{ id: string }>("INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id", [
    email,
    await hashPassword(PASSWORD),
  ]);
  if (viewer !== "shopper") {
    await appQuery("INSERT INTO staff_members (user_id, role, granted_by) VALUES ($1, $2, 'test')", [user!.id, viewer]);
  }
  emails.set(viewer, email);
  const browser = new Browser();
  expect((await browser.signIn(email, PASSWORD)).error).toBeNull();
  return browser;
}

beforeAll(async () => {
  for (const viewer of [...STAFF_ROLES, "shopper"] as const) browsers.set(viewer, await account(viewer));
});

const pages = [{ key: "home", path: "/admin", permission: null }, ...ADMIN_SECTIONS];

describe("back-office pages as every viewer", () => {
  it.each(pages)("$path sends a guest to sign in and back", async ({ path }) => {
    const res = await new Browser().fetch(path);
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  });

  it.each(pages)("$path is 403 for a shopper, with the no-access page and none of the section", async ({ path }) => {
    const res = await browsers.get("shopper")!.fetch(path);
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(html).toMatch(/403/);
    expect(html).not.toContain('aria-current="page"');
  });

  const table = STAFF_ROLES.flatMap((role) =>
    pages.map((p) => ({ role, path: p.path, allowed: p.permission === null || can(role, p.permission) })),
  );
  it.each(table)("$path as $role: allowed=$allowed", async ({ role, path, allowed }) => {
    const res = await browsers.get(role)!.fetch(path);
    expect(res.status).toBe(allowed ? 200 : 403);
  });
});

describe("staff changes", () => {
  it("an admin's page lists the staff; an operator cannot read it", async () => {
    const html = await (await browsers.get("admin")!.fetch("/admin/staff")).text();
    expect(html).toContain(emails.get("support"));
    const denied = await (await browsers.get("operator")!.fetch("/admin/staff")).text();
    expect(denied).not.toContain(emails.get("support"));
  });
});
