import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { STAFF_ROLES, type StaffRole } from "@/lib/admin/permissions";
import { hashPassword } from "@/lib/auth/password";
import { messages } from "@/lib/i18n/messages";
import { EXPECTED_PAGES, EXPECTED_ROLES, EXPECTED_ROUTES, type Viewer } from "@/tests/support/admin-permissions";
import { until } from "@/tests/support/paid-intent";
import { startReceiver, type Receiver } from "@/tests/support/receiver";
import { Browser } from "./browser";
import { api, appQuery, expectErrorBody } from "./support";

// The permission table on the real server, against the table written out by hand from the issue
// (tests/support/admin-permissions.ts), never against `can()`: every back-office page (sub-pages
// with a real order, promo code and kept e-mail), every route handler and the order page's action
// buttons, as a guest, a shopper and each staff role. A missing permission gets 403 (the no-access
// page, or a JSON refusal from a route) and never the data; a guest is sent to sign in and back
// (a route answers 401).

const PASSWORD = "back office test password 1";
const root = path.resolve(import.meta.dirname, "../..");
const base = () => inject("appBaseUrl");
const browsers = new Map<Exclude<Viewer, "guest">, Browser>();
const emails = new Map<Exclude<Viewer, "guest">, string>();
const VIEWERS: readonly Viewer[] = ["guest", "shopper", ...STAFF_ROLES];
const t = messages.ru;

/** The real ids the sub-pages open, and a piece of each one's data that a refused viewer must never see. */
const fixture = { intent: "", promo: "", mail: "", buyer: "", promoCode: "", mailSubject: "" };
let receiver: Receiver;

async function account(viewer: Exclude<Viewer, "guest">): Promise<Browser> {
  const email = `${viewer}-${crypto.randomBytes(4).toString("hex")}@perm.example.com`;
  // Confirmed: a role counts only on an account that proved its address (tests/http/email-confirmation.test.ts).
  const [user] = await appQuery<{ id: string }>(
    "INSERT INTO users (email, password_hash, email_confirmed_at) VALUES ($1, $2, now()) RETURNING id",
    [email, await hashPassword(PASSWORD)],
  );
  if (viewer !== "shopper") {
    await appQuery("INSERT INTO staff_members (user_id, role, granted_by) VALUES ($1, $2, 'test')", [user!.id, viewer]);
  }
  emails.set(viewer, email);
  const browser = new Browser();
  expect((await browser.signIn(email, PASSWORD)).error).toBeNull();
  return browser;
}

const browserOf = (viewer: Viewer) => (viewer === "guest" ? new Browser() : browsers.get(viewer)!);

beforeAll(async () => {
  for (const viewer of [...STAFF_ROLES, "shopper"] as const) browsers.set(viewer, await account(viewer));

  // A gift paid through the payment page, with a callback to a partner: its order page has a
  // refund, an e-mail (the receipt, kept without SMTP) and a callback to resend.
  receiver = await startReceiver();
  fixture.buyer = `perm-buyer-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const created = await api("/api/v1/gifts/verify", {
    body: {
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: fixture.buyer,
      fee: "excluded",
      callbackUrl: `${receiver.url}/giftkey`,
    },
  });
  expect(created.status).toBe(201);
  fixture.intent = created.body.intentId;
  const paid = await fetch(`${base()}/pay/${fixture.intent}/submit`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "choice=pay",
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  const mail = await until(async () => {
    const rows = await appQuery<{ id: string; subject: string }>(
      "SELECT id, subject FROM mail_messages WHERE intent_id = $1 AND status = 'stored'",
      [fixture.intent],
    );
    return rows[0];
  });
  fixture.mail = mail.id;
  fixture.mailSubject = mail.subject;
  await until(async () => (await appQuery("SELECT 1 FROM webhook_deliveries WHERE intent_id = $1", [fixture.intent])).length > 0);

  fixture.promoCode = `PERM${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
  const [promo] = await appQuery<{ id: number }>(
    "INSERT INTO promo_codes (code, kind, value, applies_to) VALUES ($1, 'percent', 5, 'all') RETURNING id",
    [fixture.promoCode],
  );
  fixture.promo = String(promo!.id);
});

afterAll(() => receiver?.close());

const real = (p: string) => p.replace("{intent}", fixture.intent).replace("{promo}", fixture.promo).replace("{mail}", fixture.mail);

/** What only the page itself shows: never on the no-access page. */
function dataOf(p: string): string | null {
  if (p.includes("{intent}")) return fixture.buyer;
  if (p.includes("{promo}")) return fixture.promoCode;
  if (p.includes("{mail}")) return fixture.mailSubject;
  return null;
}

function walk(dir: string, file: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full, file);
    return entry.name === file ? [path.relative(path.join(root, "app/admin"), full)] : [];
  });
}

describe("the hand-written table covers the back office", () => {
  it("lists every page and every route handler under app/admin", () => {
    expect(walk(path.join(root, "app/admin"), "page.tsx").sort()).toEqual(EXPECTED_PAGES.map((p) => p.page).sort());
    expect(walk(path.join(root, "app/admin"), "route.ts").sort()).toEqual(EXPECTED_ROUTES.map((r) => r.route).sort());
  });
});

describe("back-office pages as every viewer", () => {
  const table = EXPECTED_PAGES.flatMap((p) =>
    VIEWERS.map((viewer) => ({
      path: p.path,
      viewer,
      expected: viewer === "guest" ? "sign in" : p.roles.includes(viewer as StaffRole) ? "200" : "403",
    })),
  );

  it.each(table)("$path as $viewer: $expected", async ({ path: template, viewer, expected }) => {
    const target = real(template);
    const res = await browserOf(viewer).fetch(target);
    const data = dataOf(template);
    if (expected === "sign in") {
      expect(res.status).toBe(307);
      expect(res.headers.get("location")).toBe(`/sign-in?callbackUrl=${encodeURIComponent(target)}`);
      return;
    }
    const html = await res.text();
    if (expected === "200") {
      expect(res.status).toBe(200);
      if (data) expect(html).toContain(data);
      return;
    }
    expect(res.status).toBe(403);
    expect(html).toContain(t.admin.forbidden.title);
    // The no-access page alone: no section of the back office, none of the page's data.
    expect(html).not.toContain('aria-current="page"');
    if (data) expect(html).not.toContain(data);
  });
});

describe("back-office route handlers as every viewer", () => {
  async function call(viewer: Viewer, route: (typeof EXPECTED_ROUTES)[number]): Promise<Response> {
    if (route.method === "GET") return browserOf(viewer).fetch(route.path);
    const form = new FormData();
    // One entry the store returned nothing for: the import runs and writes no game.
    form.set("file", new File(['{"3999990": {"success": false}}'], "permissions.json", { type: "application/json" }));
    return browserOf(viewer).fetch(route.path, { method: "POST", body: form, headers: { origin: base() } });
  }

  const table = EXPECTED_ROUTES.flatMap((route) =>
    VIEWERS.map((viewer) => ({
      route,
      label: `${route.method} ${route.path}`,
      viewer,
      expected: viewer === "guest" ? 401 : route.roles.includes(viewer as StaffRole) ? 200 : 403,
    })),
  );

  it.each(table)("$label as $viewer: $expected", async ({ route, viewer, expected }) => {
    const res = await call(viewer, route);
    expect(res.status).toBe(expected);
    const text = await res.text();
    if (expected === 200) {
      expect(res.headers.get("content-type")).toMatch(route.method === "GET" ? /^text\/csv/ : /^application\/x-ndjson/);
      if (route.path === "/admin/orders/export") expect(text).toContain(fixture.intent);
      if (route.method === "POST") expect(text.trim().split("\n").at(-1)).toContain('"type":"done"');
      return;
    }
    const body = JSON.parse(text) as unknown;
    expectErrorBody(expected, body);
    expect(body).toMatchObject({ reason: expected === 401 ? "not_signed_in" : "permission_denied" });
    expect(text).not.toContain(fixture.intent);
  });
});

describe("the order page offers each role only the actions its permissions allow", () => {
  const o = t.adminOrders;
  const buttons = [
    { name: "refund", permission: "orders:refund", html: `>${o.refund.button}</button>` },
    {
      name: "resend the receipt",
      permission: "mail:resend",
      html: `aria-label="${o.resend.mailLabel.replace("{kind}", o.mailKinds.receipt)}"`,
    },
    {
      name: "resend the callback",
      permission: "callbacks:resend",
      html: `aria-label="${o.resend.callbackLabel.replace("{event}", "intent.paid")}"`,
    },
  ] as const;
  const table = STAFF_ROLES.flatMap((role) =>
    buttons.map((b) => ({ role, ...b, shown: (EXPECTED_ROLES[b.permission] as readonly StaffRole[]).includes(role) })),
  );

  it.each(table)("$name as $role: shown=$shown", async ({ role, html, shown }) => {
    const page = await (await browsers.get(role)!.fetch(`/admin/orders/${fixture.intent}`)).text();
    // The page renders with «» quotes in Russian; React escapes none of these characters.
    if (shown) expect(page).toContain(html);
    else expect(page).not.toContain(html);
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
