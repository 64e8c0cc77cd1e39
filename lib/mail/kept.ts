import "server-only";
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { mailMessages, type MAIL_MESSAGE_STATUSES } from "@/lib/db/schema";
import { isUuid } from "@/lib/schemas/common";

const listColumns = {
  id: mailMessages.id,
  kind: mailMessages.kind,
  recipient: mailMessages.recipient,
  locale: mailMessages.locale,
  subject: mailMessages.subject,
  status: mailMessages.status,
  createdAt: mailMessages.createdAt,
};

/** The newest messages in the outbox, for the page that shows mail kept without an SMTP server. */
export function listMail(db: Database, limit = 100) {
  return db.select(listColumns).from(mailMessages).orderBy(desc(mailMessages.createdAt), desc(mailMessages.id)).limit(limit);
}

export interface MailFilter {
  status?: (typeof MAIL_MESSAGE_STATUSES)[number];
  /** Part of the recipient's address, any case. */
  recipient?: string;
  page?: number;
  pageSize?: number;
}

/** The back office's page of the outbox: newest first, filtered and paged in the database, with how many match. */
export async function listMailPage(db: Database, filter: MailFilter = {}) {
  const pageSize = Math.min(Math.max(filter.pageSize ?? 50, 1), 200);
  const page = Math.max(filter.page ?? 1, 1);
  const where: SQL[] = [];
  if (filter.status) where.push(eq(mailMessages.status, filter.status));
  if (filter.recipient) where.push(sql`${mailMessages.recipient} ILIKE ${`%${filter.recipient.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  const [messages, [counted]] = await Promise.all([
    db
      .select({
        ...listColumns,
        intentId: mailMessages.intentId,
        attemptCount: mailMessages.attemptCount,
        lastError: mailMessages.lastError,
        sentAt: mailMessages.sentAt,
      })
      .from(mailMessages)
      .where(and(...where))
      .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ n: count() })
      .from(mailMessages)
      .where(and(...where)),
  ]);
  return { messages, total: counted?.n ?? 0 };
}

/** One message with its parts; null for an unknown or malformed id. */
export async function getMail(db: Database, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      ...listColumns,
      html: mailMessages.html,
      text: mailMessages.text,
      messageId: mailMessages.messageId,
      intentId: mailMessages.intentId,
      attemptCount: mailMessages.attemptCount,
      lastError: mailMessages.lastError,
      sentAt: mailMessages.sentAt,
    })
    .from(mailMessages)
    .where(eq(mailMessages.id, id));
  return row ?? null;
}
