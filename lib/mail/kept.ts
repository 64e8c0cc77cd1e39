import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema";
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
    })
    .from(mailMessages)
    .where(eq(mailMessages.id, id));
  return row ?? null;
}
