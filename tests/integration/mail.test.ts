import crypto from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb, createPool, type Database } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema";
import { intlLocale, type Locale } from "@/lib/i18n/config";
import { mailLeaseFor, smtpTransport, type MailConfig } from "@/lib/mail/config";
import { attemptMail, claimDueMail } from "@/lib/mail/delivery";
import { enqueueIntentMail } from "@/lib/mail/outbox";
import { formatRub } from "@/lib/money";
import { verifyOrderLinkToken } from "@/lib/orders/link";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { payIntent } from "@/lib/services/intent-lifecycle";
import { createApiToken, ensureUser, type AuthToken } from "@/lib/services/tokens";
import { mailJob } from "@/lib/worker/mail-job";
import { BackgroundRunner } from "@/lib/worker/runner";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { until } from "@/tests/support/paid-intent";
import { startSmtpSink, type SmtpSink } from "@/tests/support/smtp";

const ORIGIN = "https://store.example.com";
const FROM = "GiftKey <no-reply@store.example.com>";

let t: TestDatabase;
let smtp: SmtpSink;
let token: AuthToken;
const runners: BackgroundRunner[] = [];

const config = (over: Partial<MailConfig> = {}): MailConfig => ({
  transport: smtpTransport(smtp.url, 2_000),
  from: FROM,
  retryDelaysMs: [100, 200, 300],
  leaseMs: mailLeaseFor(2_000),
  ...over,
});

function startWorker(db: Database, cfg = config()): BackgroundRunner {
  const runner = new BackgroundRunner().register(mailJob(db, cfg, { pollMs: 25 })).start();
  runners.push(runner);
  return runner;
}

beforeAll(async () => {
  t = await createTestDatabase();
  smtp = await startSmtpSink();
  const userId = await ensureUser(t.db, "mail-partner@example.com");
  const created = await createApiToken(t.db, { userId, name: "mail", scopes: ["gifts:verify", "gear:create"] });
  token = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  await t.db.execute(sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock)
    VALUES (730, 'mail-crate', 'Mail Crate', 12345, 100000) ON CONFLICT DO NOTHING`);
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  // Nothing from one test may be sent during the next.
  await t.db.execute(sql`UPDATE mail_messages SET status = 'failed' WHERE status = 'pending'`);
  smtp.received.length = 0;
  smtp.refused = 0;
  smtp.answer(() => ({ accept: true }));
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

async function gearIntent(locale?: Locale): Promise<string> {
  const body = gearIntentRequestSchema.parse({
    account: "76561198000000001",
    platform: "730",
    item: "mail-crate",
    email: `gamer-${crypto.randomBytes(3).toString("hex")}@example.com`,
    ...(locale ? { locale } : {}),
  });
  return (await reserveGear(t.db, token, body, ORIGIN)).intentId;
}

const pay = (intentId: string) =>
  payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: `sbx_${crypto.randomBytes(6).toString("hex")}`, origin: ORIGIN });

/** A gear intent paid through the service: its receipt is in the outbox. Returns the message's id. */
async function paidReceipt(locale?: Locale): Promise<string> {
  const intentId = await gearIntent(locale);
  await pay(intentId);
  const [row] = await t.db.select({ id: mailMessages.id }).from(mailMessages).where(eq(mailMessages.intentId, intentId));
  return row!.id;
}

const message = async (id: string) => (await t.db.select().from(mailMessages).where(eq(mailMessages.id, id)))[0]!;
const finished = (id: string, timeoutMs = 15_000) =>
  until(
    async () => {
      const row = await message(id);
      return row.status !== "pending" && row;
    },
    timeoutMs,
    `message ${id} leaving the outbox`,
  );

describe("the mail outbox", () => {
  it("holds nothing from a transaction that rolled back, and one receipt per payment that committed", async () => {
    const intentId = await gearIntent();
    await expect(
      t.db.transaction(async (tx) => {
        await enqueueIntentMail(tx, { intentId, kind: "delivered" });
        throw new Error("the delivery failed after all");
      }),
    ).rejects.toThrow("the delivery failed after all");
    expect(await t.db.select().from(mailMessages).where(eq(mailMessages.intentId, intentId))).toEqual([]);

    await pay(intentId);
    const rows = await t.db.select().from(mailMessages).where(eq(mailMessages.intentId, intentId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "receipt", status: "pending", attemptCount: 0, locale: "ru", sentAt: null });
    expect(rows[0]!.messageId).toBe(`<${rows[0]!.id}@localhost>`);

    // Asking for the same message again returns the one there is.
    const again = await t.db.transaction((tx) => enqueueIntentMail(tx, { intentId, kind: "receipt" }));
    expect(again).toBe(rows[0]!.id);
    expect(await t.db.select().from(mailMessages).where(eq(mailMessages.intentId, intentId))).toHaveLength(1);
  });

  it("retries after the SMTP server refuses for a while, and sends the message once it takes it", async () => {
    smtp.answer((n) => (n < 2 ? { accept: false, code: 451, message: "try again later" } : { accept: true }));
    const id = await paidReceipt();
    startWorker(t.db);

    const row = await finished(id);
    expect(row).toMatchObject({ status: "sent", attemptCount: 3, lockedUntil: null, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(smtp.refused).toBe(2);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.parsed.messageId).toBe(row.messageId);
  });

  it("records the last error and fails at once on a permanent refusal, after the schedule on a passing one", async () => {
    smtp.answer(() => ({ accept: false, code: 550, message: "no such mailbox" }));
    const permanent = await paidReceipt();
    startWorker(t.db);
    expect(await finished(permanent)).toMatchObject({ status: "failed", attemptCount: 1, sentAt: null });
    expect((await message(permanent)).lastError).toContain("no such mailbox");

    smtp.answer(() => ({ accept: false, code: 421, message: "busy" }));
    const passing = await paidReceipt();
    expect(await finished(passing)).toMatchObject({ status: "failed", attemptCount: 4 });
    expect(smtp.received).toHaveLength(0);
  });

  it("takes over a message whose worker died mid-send once its lease runs out; the dead claim can no longer record", async () => {
    const id = await paidReceipt();
    // A worker claims the message with a short lease and dies before sending or recording anything.
    const [dead] = await claimDueMail(t.db, 10, 400);
    expect(dead?.id).toBe(id);
    startWorker(t.db);
    await new Promise((r) => setTimeout(r, 200));
    expect((await message(id)).status).toBe("pending");

    const row = await finished(id);
    expect(row).toMatchObject({ status: "sent", attemptCount: 1 });
    expect(smtp.received).toHaveLength(1);

    // Had it only stalled, its late attempt changes nothing on record: the documented duplicate,
    // with the same Message-ID, is all it can cause.
    expect(await attemptMail(t.db, dead!, config())).toBe("lost-lease");
    expect(await message(id)).toMatchObject({ status: "sent", attemptCount: 1 });
    expect(smtp.received.map((m) => m.parsed.messageId)).toEqual([row.messageId, row.messageId]);
  });

  it("sends each message once with two workers on their own connections", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await paidReceipt());
    const second = createPool(t.url);
    try {
      startWorker(t.db);
      startWorker(createDb(second));
      await until(
        async () => {
          const rows = await t.db.select({ status: mailMessages.status }).from(mailMessages).where(inArray(mailMessages.id, ids));
          return rows.every((r) => r.status === "sent");
        },
        20_000,
        "every message sent",
      );
      await Promise.all(runners.splice(0).map((r) => r.stop()));
    } finally {
      await second.end();
    }
    const rows = await t.db.select().from(mailMessages).where(inArray(mailMessages.id, ids));
    expect(rows.every((r) => r.attemptCount === 1)).toBe(true);
    const arrived = smtp.received.map((m) => m.parsed.messageId).sort();
    expect(arrived).toEqual(rows.map((r) => r.messageId).sort());
  });

  it("without an SMTP server keeps messages in the database, readable, and sends nothing", async () => {
    const id = await paidReceipt("en");
    startWorker(t.db, config({ transport: null }));
    const row = await finished(id);
    expect(row).toMatchObject({ status: "stored", attemptCount: 0, locale: "en" });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.html).toContain("Thank you for your purchase!");
    expect(smtp.received).toHaveLength(0);
  });
});

describe("the receipt through a real SMTP server", () => {
  async function receiptFor(intentId: string) {
    await pay(intentId);
    const [row] = await t.db.select().from(mailMessages).where(eq(mailMessages.intentId, intentId));
    startWorker(t.db);
    await finished(row!.id);
    const mail = smtp.received.find((m) => m.parsed.messageId === row!.messageId);
    expect(mail).toBeDefined();
    return { row: row!, mail: mail! };
  }

  const orderLinkIn = (text: string, intentId: string) => {
    const match = new RegExp(`${ORIGIN}/orders/${intentId}\\?t=([A-Za-z0-9_-]{43})`).exec(text);
    return match !== null && verifyOrderLinkToken(intentId, match[1]);
  };

  it("in Russian: a gift of Portal 2 with WELCOME10, the fee on top", async () => {
    const body = giftVerifyRequestSchema.parse({
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: "friend-buyer@example.com",
      fee: "excluded",
      code: "WELCOME10",
      locale: "ru",
    });
    const created = await verifyGift(t.db, token, body, ORIGIN);
    expect(created.paymentAmount).toBe(37706);
    const { mail } = await receiptFor(created.intentId);
    const { parsed } = mail;
    const rub = (k: number) => formatRub(k, intlLocale("ru"));

    expect(mail.user).toBe("giftkey");
    expect(mail.envelopeTo).toEqual(["friend-buyer@example.com"]);
    expect(parsed.from?.text).toBe(`"GiftKey" <no-reply@store.example.com>`);
    expect(parsed.headers.get("auto-submitted")).toBe("auto-generated");
    expect(parsed.subject).toBe(`Чек: Portal 2 — ${rub(37706)}`);
    const text = parsed.text!;
    expect(text).toContain("Подарок другу: Portal 2");
    expect(text).toContain("Ссылка-приглашение друга: https://s.team/p/fhgc-rdqr/NQVGTQPG");
    expect(text).toContain("Регион получателя: Россия");
    expect(text).toMatch(/Цена\s+399\s₽/u);
    expect(text).toMatch(/Скидка по промокоду WELCOME10\s+−39,90\s₽/u);
    expect(text).toMatch(/Комиссия сервиса\s+17,96\s₽/u);
    expect(text).toMatch(/Оплачено\s+377,06\s₽/u);
    expect(orderLinkIn(text, created.intentId)).toBe(true);
    const html = parsed.html as string;
    expect(html).toContain('lang="ru"');
    expect(html).toContain(rub(37706));
    expect(orderLinkIn(html, created.intentId)).toBe(true);
  });

  it("in English: gear for a SteamID64, no promo code", async () => {
    const intentId = await gearIntent("en");
    const { mail } = await receiptFor(intentId);
    const { parsed } = mail;
    expect(parsed.subject).toBe(`Receipt: Mail Crate — ${formatRub(12962, intlLocale("en"))}`);
    const text = parsed.text!;
    expect(text).toContain("Mail Crate for Counter-Strike 2");
    expect(text).toContain("Steam account (SteamID64): 76561198000000001");
    expect(text).toMatch(/Price\s+₽123\.45/u);
    expect(text).toMatch(/Service fee\s+₽6\.17/u);
    expect(text).toMatch(/Paid\s+₽129\.62/u);
    expect(text).not.toContain("Promo code");
    expect(orderLinkIn(text, intentId)).toBe(true);
    expect(parsed.html as string).toContain('lang="en"');
  });
});
