import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { Browser } from "./browser";
import { appQuery } from "./support";

// Issue 24, finding 4, as the attacker played it: sign up with a colleague's address before the
// admin grants it a role. The role must give that account nothing until the address is confirmed,
// which only the mailbox's owner can do; an owner who signed up themselves gets the role on confirming.

const PASSWORD = "violet tundra ferry oak 8";
let admin: Browser;

beforeAll(async () => {
  const email = `conf-admin-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const [user] = await appQuery<{ id: string }>(
    "INSERT INTO users (email, password_hash, email_confirmed_at) VALUES ($1, $2, now()) RETURNING id",
    [email, await hashPassword(PASSWORD)],
  );
  await appQuery("INSERT INTO staff_members (user_id, role, granted_by) VALUES ($1, 'admin', 'test')", [user!.id]);
  admin = new Browser();
  expect((await admin.signIn(email, PASSWORD)).error).toBeNull();
});

/** Signs up on the store's own sign-up form (its server action) and signs in, as a visitor would. */
async function signUp(email: string): Promise<Browser> {
  const browser = new Browser();
  expect(await browser.action("/sign-up", "app/sign-up/actions.ts", "signUpAction", [{ email, password: PASSWORD }])).toEqual({ ok: true });
  expect((await browser.signIn(email, PASSWORD)).error).toBeNull();
  return browser;
}

const grant = (email: string, role: string) =>
  admin.action<{ ok: boolean; inEffect?: boolean }>("/admin/staff", "app/admin/staff/actions.ts", "grantStaffAction", [{ email, role }]);

/** The confirmation link as the mailbox's owner receives it: from the kept mail, read on this machine. */
async function confirmationLink(email: string): Promise<string> {
  const [mail] = await appQuery<{ id: string; html: string }>(
    "SELECT id, html FROM mail_messages WHERE kind = 'email_confirmation' AND recipient = $1 ORDER BY created_at DESC LIMIT 1",
    [email],
  );
  // What the outbox keeps (and support can read on /admin/mail) has no usable link.
  expect(mail!.html).toContain(".proofAddedWhenSent");
  const page = await (await new Browser("127.0.0.1").fetch(`/dev/mail/${mail!.id}`)).text();
  const link = /https?:\/\/[^\s"<]+\/confirm-email\?token=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/.exec(page)?.[0];
  expect(link).toBeTruthy();
  return new URL(link!).pathname + new URL(link!).search;
}

describe("a staff role on an account that has not confirmed its address", () => {
  it("gives the squatter who signed up with a colleague's address no back-office access", async () => {
    const colleague = `colleague-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const squatter = await signUp(colleague);
    expect(await grant(colleague, "operator")).toMatchObject({ ok: true, inEffect: false });

    const orders = await squatter.fetch("/admin/orders");
    expect(orders.status).toBe(403);
    expect(await orders.text()).not.toContain("perm-buyer");
    // A back-office action is refused as for any shopper, checked on the server.
    const resend = await squatter.action("/admin/orders", "app/admin/orders/actions.ts", "resendOrderMailAction", [
      { intentId: crypto.randomUUID(), kind: "receipt" },
    ]);
    expect(resend).toMatchObject({ ok: false, reason: "permission_denied" });

    // The admin sees the role as granted and waiting.
    const row = (await (await admin.fetch("/admin/staff")).text())
      .split("<tr")
      .map((r) => r.split("</tr>")[0]!)
      .find((r) => r.includes(colleague));
    expect(row).toContain("ждёт подтверждения почты");
  });

  it("takes effect once the owner who signed up confirms the address by the mailed link", async () => {
    const owner = `owner-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const browser = await signUp(owner);
    expect(await grant(owner, "support")).toMatchObject({ ok: true, inEffect: false });
    expect((await browser.fetch("/admin/orders")).status).toBe(403);

    const link = await confirmationLink(owner);
    // Opening the link confirms nothing by itself (a mail scanner follows links): the page asks.
    const opened = await new Browser().fetch(link);
    expect(opened.status).toBe(200);
    expect((await browser.fetch("/admin/orders")).status).toBe(403);
    const token = new URLSearchParams(link.split("?")[1]).get("token")!;
    const confirmed = await new Browser().fetch("/confirm-email/submit", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/confirm-email?result=confirmed");
    expect((await browser.fetch("/admin/orders")).status).toBe(200);
    const row = (await (await admin.fetch("/admin/staff")).text())
      .split("<tr")
      .map((r) => r.split("</tr>")[0]!)
      .find((r) => r.includes(owner));
    expect(row).toContain("действует");
    expect(row).not.toContain("ждёт подтверждения почты");
  });
});
