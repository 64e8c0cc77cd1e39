import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { Browser } from "./browser";
import { appQuery } from "./support";

// The back office's pages and exports read numbers and dates from their URLs: past what the
// database holds (a year 0, a page beyond any offset, an id past the integer range) each answers as
// for a value it cannot read (the filter dropped, the first or last page, not found), never a 500.

const PASSWORD = "back office bounds password 1";
let admin: Browser;

beforeAll(async () => {
  const email = `bounds-${crypto.randomBytes(4).toString("hex")}@admin.example.com`;
  const [user] = await appQuery<{ id: string }>(
    "INSERT INTO users (email, password_hash, email_confirmed_at) VALUES ($1, $2, now()) RETURNING id",
    [email, await hashPassword(PASSWORD)],
  );
  await appQuery("INSERT INTO staff_members (user_id, role, granted_by) VALUES ($1, 'admin', 'test')", [user!.id]);
  admin = new Browser();
  expect((await admin.signIn(email, PASSWORD)).error).toBeNull();
});

const huge = "1".padEnd(40, "0");

describe("back-office URLs with numbers and dates past the database's range", () => {
  it.each([
    ["/admin/campaigns?to=0000-01-01", 200],
    ["/admin/campaigns?from=0000-01-01&to=0000-01-02", 200],
    ["/admin/campaigns?from=9999-12-30&to=9999-12-31", 200],
    ["/admin/campaigns/export?from=0000-01-01&to=0000-01-02", 200],
    ["/admin/orders?from=0000-01-01&to=0000-01-01", 200],
    ["/admin/orders/export?from=0000-01-01&to=9999-12-31", 200],
    ["/admin/audit?from=0000-01-01&to=0000-01-01", 200],
    [`/admin/audit?before=${huge}`, 200],
    [`/admin/partners?page=${huge}`, 200],
    [`/admin/mail?page=${huge}`, 200],
    [`/admin/queue?page=${huge}`, 200],
    [`/admin/catalog?page=${huge}`, 200],
    [`/admin/gear?page=${huge}&platform=${huge}`, 200],
    [`/admin/promo-codes?page=${huge}`, 200],
    [`/admin/orders?page=${huge}&game=${huge}`, 200],
    ["/admin/promo-codes/99999999999", 404],
    ["/admin/catalog/99999999999", 404],
  ])("GET %s answers %i", async (path, status) => {
    const res = await admin.fetch(path);
    await res.arrayBuffer();
    expect(res.status).toBe(status);
  });
});
