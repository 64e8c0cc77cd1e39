import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withConfirmationProofs } from "@/lib/auth/confirmation-link";
import { mailMessages, users } from "@/lib/db/schema";
import { isDomainError } from "@/lib/errors";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { listGuestIntentsForAccount } from "@/lib/services/account";
import { CLI_ACTOR } from "@/lib/services/audit";
import {
  confirmEmail,
  inspectEmailConfirmation,
  resendEmailConfirmation,
  writePendingConfirmationMails,
} from "@/lib/services/email-confirmation";
import { reserveGear } from "@/lib/services/gear";
import { findStaffRole, grantStaffRole, listStaff, revokeStaffRole } from "@/lib/services/staff";
import { authenticateToken, issueStorefrontToken } from "@/lib/services/tokens";
import { registerUser } from "@/lib/services/users";
import { createDb, createPool } from "@/lib/db/client";
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

const unique = () => Math.random().toString(36).slice(2, 8);
const PASSWORD = "violet tundra ferry oak 8";

async function signUp(email: string, locale: "ru" | "en" = "ru") {
  const result = await registerUser(t.db, { email, password: PASSWORD }, { locale, origin: "https://store.example.com" });
  if (!result.ok) throw new Error("sign-up refused");
  return result.user;
}

/** The account's confirmation mails, newest first, with the links as the SMTP server receives them. */
async function confirmationMails(userId: string) {
  const rows = await t.db
    .select()
    .from(mailMessages)
    .where(sql`${mailMessages.userId} = ${userId} AND ${mailMessages.kind} = 'email_confirmation'`)
    .orderBy(sql`${mailMessages.createdAt} DESC`);
  return rows.map((row) => ({ ...row, sentText: withConfirmationProofs(row.text) }));
}

async function linkToken(userId: string): Promise<string> {
  const [mail] = await confirmationMails(userId);
  const token = /confirm-email\?token=([0-9a-f-]{36}\.[A-Za-z0-9_-]{43})/.exec(mail!.sentText)?.[1];
  if (!token) throw new Error("no confirmation link in the mail");
  return token;
}

describe("the confirmation mail", () => {
  it("is written with the sign-up, in the account's language, and keeps no usable link", async () => {
    const user = await signUp(`mail-${unique()}@example.com`, "en");
    const [mail] = await confirmationMails(user.id);
    expect(mail).toMatchObject({ recipient: user.email, locale: "en", subject: "Confirm your e-mail address at GiftKey", intentId: null });
    expect(mail!.text).toContain(`https://store.example.com/confirm-email?token=`);
    // Stored: the proof is a placeholder; sent: it is filled in.
    expect(mail!.html).toMatch(/token=[0-9a-f-]{36}\.proofAddedWhenSent/);
    expect(mail!.text).not.toMatch(/token=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/);
    expect(mail!.sentText).toMatch(/token=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/);
    const ru = await signUp(`mail-ru-${unique()}@example.com`);
    expect((await confirmationMails(ru.id))[0]).toMatchObject({ locale: "ru", subject: "Подтвердите адрес почты в GiftKey" });
  });
});

describe("confirming", () => {
  it("works once: the first use confirms, any later one says it is already confirmed", async () => {
    const user = await signUp(`once-${unique()}@example.com`);
    const token = await linkToken(user.id);
    expect(await inspectEmailConfirmation(t.db, token)).toEqual({ state: "ready", email: user.email });
    // Two clicks at once confirm once.
    const [a, b] = await Promise.all([confirmEmail(t.db, token), confirmEmail(t.db, token)]);
    expect([a.state, b.state].sort()).toEqual(["already_confirmed", "confirmed"]);
    expect(await confirmEmail(t.db, token)).toEqual({ state: "already_confirmed", email: user.email });
    const [row] = await t.db.select({ at: users.emailConfirmedAt }).from(users).where(eq(users.id, user.id));
    expect(row!.at).toBeInstanceOf(Date);
  });

  it("expires: a link past its time confirms nothing and says so, and a new one works", async () => {
    const user = await signUp(`expiry-${unique()}@example.com`);
    const token = await linkToken(user.id);
    const later = new Date(Date.now() + 49 * 3600_000);
    expect(await inspectEmailConfirmation(t.db, token, later)).toEqual({ state: "expired", email: user.email });
    expect(await confirmEmail(t.db, token, later)).toEqual({ state: "expired", email: user.email });
    expect((await t.db.select({ at: users.emailConfirmedAt }).from(users).where(eq(users.id, user.id)))[0]!.at).toBeNull();
    expect(await resendEmailConfirmation(t.db, user.id)).toEqual({ ok: true, sent: true });
    expect(await confirmEmail(t.db, await linkToken(user.id))).toEqual({ state: "confirmed", email: user.email });
  });

  it.each([
    ["nothing", undefined],
    ["garbage", "not a token"],
    ["an altered proof", "altered"],
    ["an unknown id with a made-up proof", `${crypto.randomUUID()}.${"A".repeat(43)}`],
  ])("refuses %s as invalid", async (_, given) => {
    const user = await signUp(`forged-${unique()}@example.com`);
    const real = await linkToken(user.id);
    const token = given === "altered" ? `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}` : given;
    expect(await confirmEmail(t.db, token)).toEqual({ state: "invalid" });
    expect((await t.db.select({ at: users.emailConfirmedAt }).from(users).where(eq(users.id, user.id)))[0]!.at).toBeNull();
  });

  it("is of the address: changing the account's address unconfirms it, and an old link confirms nothing", async () => {
    const user = await signUp(`moving-${unique()}@example.com`);
    const oldLink = await linkToken(user.id);
    await t.db
      .update(users)
      .set({ email: `moved-${unique()}@example.com` })
      .where(eq(users.id, user.id));
    expect(await confirmEmail(t.db, oldLink)).toEqual({ state: "invalid" });

    const other = await signUp(`confirmed-then-moved-${unique()}@example.com`);
    await confirmEmail(t.db, await linkToken(other.id));
    // Only the letter case: the same address, still confirmed.
    await t.db.update(users).set({ email: other.email.toUpperCase() }).where(eq(users.id, other.id));
    expect((await t.db.select({ at: users.emailConfirmedAt }).from(users).where(eq(users.id, other.id)))[0]!.at).not.toBeNull();
    await t.db
      .update(users)
      .set({ email: `elsewhere-${unique()}@example.com` })
      .where(eq(users.id, other.id));
    expect((await t.db.select({ at: users.emailConfirmedAt }).from(users).where(eq(users.id, other.id)))[0]!.at).toBeNull();
  });
});

describe("sending the link again", () => {
  it("is limited per account: a burst of 10 sends exactly the limit (3)", async () => {
    // The strict window is aligned to the clock: a burst must not straddle its end.
    const intoWindow = (Date.now() / 1000) % 900;
    if (intoWindow > 890) await new Promise((r) => setTimeout(r, (901 - intoWindow) * 1000));
    const user = await signUp(`burst-${unique()}@example.com`);
    const results = await Promise.all(Array.from({ length: 10 }, () => resendEmailConfirmation(t.db, user.id)));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason)).toEqual(Array(7).fill("rate_limited"));
    // The sign-up's own mail and the three sent again.
    expect(await confirmationMails(user.id)).toHaveLength(4);
  });

  it("sends nothing to an address already confirmed", async () => {
    const user = await signUp(`done-${unique()}@example.com`);
    await confirmEmail(t.db, await linkToken(user.id));
    expect(await resendEmailConfirmation(t.db, user.id)).toEqual({ ok: true, sent: false });
    expect(await confirmationMails(user.id)).toHaveLength(1);
  });
});

describe("a staff role", () => {
  it("counts as no role on an account that has not confirmed its address, and works once it has", async () => {
    const user = await signUp(`staff-${unique()}@example.com`);
    const granted = await grantStaffRole(t.db, CLI_ACTOR, user.email, "operator");
    expect(granted).toMatchObject({ role: "operator", inEffect: false, generatedPassword: null });
    expect(await findStaffRole(t.db, user.id)).toBeNull();
    expect((await listStaff(t.db)).find((s) => s.userId === user.id)).toMatchObject({ role: "operator", confirmed: false });
    // The grant sent the link again: the sign-up's mail and the grant's.
    expect(await confirmationMails(user.id)).toHaveLength(2);

    expect((await confirmEmail(t.db, await linkToken(user.id))).state).toBe("confirmed");
    expect(await findStaffRole(t.db, user.id)).toBe("operator");
    expect((await listStaff(t.db)).find((s) => s.userId === user.id)?.confirmed).toBe(true);
  });

  it("is in effect at once on an account the grant itself made (nobody could have registered it first)", async () => {
    const email = `made-${unique()}@example.com`;
    const granted = await grantStaffRole(t.db, CLI_ACTOR, email, "marketer");
    expect(granted).toMatchObject({ inEffect: true, generatedPassword: expect.any(String) });
    expect(await findStaffRole(t.db, granted.userId)).toBe("marketer");
    expect(await confirmationMails(granted.userId)).toHaveLength(0);
  });

  it("granted by `npm run staff:grant` to an unconfirmed account: the command says it waits and sends the link", async () => {
    const user = await signUp(`cli-${unique()}@example.com`);
    const result = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/staff.ts", "grant", "--email", user.email, "--role", "support"],
      { cwd: path.resolve(import.meta.dirname, "../.."), env: { ...process.env, DATABASE_URL: t.url }, encoding: "utf8" },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${user.email} now has the role support, waiting: the account has not confirmed its e-mail address`);
    expect(result.stdout).toContain("The running app mails it a confirmation link.");
    expect(await findStaffRole(t.db, user.id)).toBeNull();
    // Recorded by the command; its mail written by the worker's pass (two passes at once write it once).
    expect(await confirmationMails(user.id)).toHaveLength(1);
    const passes = await Promise.all(
      [0, 1].map(() => writePendingConfirmationMails(t.db, { limit: 50, origin: "https://store.example.com" })),
    );
    expect(passes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await confirmationMails(user.id)).toHaveLength(2);
    expect(await confirmEmail(t.db, await linkToken(user.id))).toMatchObject({ state: "confirmed" });
    expect(await findStaffRole(t.db, user.id)).toBe("support");
  });

  it("of an admin waiting for confirmation does not keep the store's last admin in office", async () => {
    const db = await createTestDatabase();
    try {
      const first = await grantStaffRole(db.db, CLI_ACTOR, `first-${unique()}@example.com`, "admin");
      const waiting = await registerUser(db.db, { email: `waiting-${unique()}@example.com`, password: PASSWORD });
      if (!waiting.ok) throw new Error("sign-up refused");
      await grantStaffRole(db.db, CLI_ACTOR, waiting.user.email, "admin");
      await expect(revokeStaffRole(db.db, CLI_ACTOR, first.email)).rejects.toSatisfy((e) => isDomainError(e, "last_admin"));
    } finally {
      await db.close();
    }
  });
});

describe("guest orders placed with the account's address", () => {
  it("show on the account only once the address is confirmed, and never another address's", async () => {
    const email = `guest-buyer-${unique()}@example.com`;
    const guestToken = await authenticateToken(t.db, (await issueStorefrontToken(t.db, null)).token);
    if (!guestToken.ok) throw new Error("no guest token");
    const order = (buyer: string) =>
      reserveGear(
        t.db,
        guestToken.token,
        gearIntentRequestSchema.parse({ account: "76561198000000001", platform: "730", item: "ak47-redline", email: buyer }),
        "https://store.example.com",
      );
    const mine = await order(email.toUpperCase());
    await order(`someone-else-${unique()}@example.com`);

    const user = await signUp(email);
    expect((await listGuestIntentsForAccount(t.db, user.id)).intents).toEqual([]);
    await confirmEmail(t.db, await linkToken(user.id));
    const listed = await listGuestIntentsForAccount(t.db, user.id);
    expect(listed.intents.map((i) => i.id)).toEqual([mine.intentId]);
    expect(listed.intents[0]).toMatchObject({ kind: "gear", tokenPurpose: "storefront" });
  });
});

describe("the upgrade that added confirmation (drizzle/0027)", () => {
  it("leaves admins and accounts the staff command made confirmed, and every other account unconfirmed", async () => {
    const empty = await createEmptyDatabase();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gk-migrations-"));
    try {
      // The migrations before this one, applied to an empty database, then the data it finds.
      const root = path.resolve(import.meta.dirname, "../../drizzle");
      fs.cpSync(root, folder, { recursive: true });
      const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
      const upTo = journal.entries.findIndex((e) => e.tag.startsWith("0027_"));
      fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
      const pool = createPool(empty.url, 2);
      try {
        const db = createDb(pool);
        await migrate(db, { migrationsFolder: folder });
        const user = async (email: string) =>
          (await pool.query<{ id: string }>("INSERT INTO users (email) VALUES ($1) RETURNING id", [email])).rows[0]!.id;
        const [admin, made, signedUp] = [await user("admin@x.example"), await user("made@x.example"), await user("signed-up@x.example")];
        await user("shopper@x.example");
        await pool.query(
          "INSERT INTO staff_members (user_id, role, granted_by) VALUES ($1, 'admin', 'cli'), ($2, 'support', 'cli'), ($3, 'operator', 'cli')",
          [admin, made, signedUp],
        );
        await pool.query(
          `INSERT INTO audit_log (actor, action, target_type, target_id, after) VALUES
             ('cli', 'staff.grant', 'user', $1, '{"role":"support","accountCreated":true}'),
             ('cli', 'staff.grant', 'user', $2, '{"role":"operator","accountCreated":false}')`,
          [made, signedUp],
        );
        await migrate(db, { migrationsFolder: root });
        const { rows } = await pool.query<{ email: string; confirmed: boolean }>(
          "SELECT email, email_confirmed_at IS NOT NULL AS confirmed FROM users ORDER BY email",
        );
        expect(rows).toEqual([
          { email: "admin@x.example", confirmed: true },
          { email: "made@x.example", confirmed: true },
          { email: "shopper@x.example", confirmed: false },
          { email: "signed-up@x.example", confirmed: false },
        ]);
      } finally {
        await pool.end();
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await empty.drop();
    }
  });
});
