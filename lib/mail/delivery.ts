import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { withConfirmationProofs } from "@/lib/auth/confirmation-link";
import type { Database } from "@/lib/db/client";
import { mailMessages } from "@/lib/db/schema";
import { log } from "@/lib/log";
import type { MailConfig } from "./config";

// Sending follows the callback outbox (lib/services/webhook-delivery.ts): claim due rows under a
// lease with SKIP LOCKED, send outside any transaction, record the outcome only while the lease is
// still ours. The guarantee is at least once, and once in all but one case: a worker that dies (or
// outlives its lease) after the SMTP server accepted a message and before it recorded that leaves
// the message due, and another worker sends it again when the lease runs out. Both copies carry the
// same Message-ID, by which mail clients and most servers drop the second.

export interface ClaimedMail {
  id: string;
  recipient: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  createdAt: Date;
  attemptCount: number;
  /** The lease this claim holds; recording the outcome requires it to be unchanged. */
  lockedUntil: Date;
}

const due = sql`status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now())`;

/**
 * Leases up to `limit` due messages to the caller (see claimDueDeliveries for why the lease is
 * truncated to milliseconds: it is the claim's fencing token).
 */
export async function claimDueMail(db: Database, limit: number, leaseMs: number): Promise<ClaimedMail[]> {
  if (limit <= 0) return [];
  const { rows } = await db.execute<{
    id: string;
    recipient: string;
    subject: string;
    html: string;
    text: string;
    message_id: string;
    created_at: Date | string;
    attempt_count: number;
    locked_until: Date | string;
  }>(sql`
    UPDATE ${mailMessages}
    SET locked_until = date_trunc('milliseconds', now() + make_interval(secs => ${leaseMs / 1000}))
    WHERE id IN (
      SELECT id FROM ${mailMessages} WHERE ${due} ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id, recipient, subject, html, text, message_id, created_at, attempt_count, locked_until`);
  return rows.map((r) => ({
    id: r.id,
    recipient: r.recipient,
    subject: r.subject,
    html: r.html,
    text: r.text,
    messageId: r.message_id,
    createdAt: new Date(r.created_at),
    attemptCount: r.attempt_count,
    lockedUntil: new Date(r.locked_until),
  }));
}

/**
 * Without an SMTP server: marks up to `limit` due messages `stored`, kept for the app to show
 * (/dev/mail). One statement, so no lease is needed. Returns how many.
 */
export async function keepDueMail(db: Database, limit: number): Promise<number> {
  const { rows } = await db.execute<{ id: string }>(sql`
    UPDATE ${mailMessages} SET status = 'stored', sent_at = now(), locked_until = NULL
    WHERE id IN (
      SELECT id FROM ${mailMessages} WHERE ${due} ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id`);
  return rows.length;
}

export type MailOutcome = "sent" | "retry" | "failed" | "lost-lease";

/** What an attempt came to: accepted, or why not and whether trying again can help. */
type SendResult = { ok: true } | { ok: false; error: string; permanent: boolean };

/**
 * Sends one claimed message and records the outcome. The SMTP server accepting it sends it; a
 * permanent refusal (a 5xx reply, such as an unknown mailbox) fails it at once; anything else
 * (no connection, a timeout, a 4xx reply, a refused login) retries per the schedule until the last
 * retry fails. The message, its Date and its Message-ID are the ones fixed when it was enqueued.
 */
export async function attemptMail(db: Database, message: ClaimedMail, config: MailConfig): Promise<MailOutcome> {
  if (!config.transport) throw new Error("attemptMail needs an SMTP transport; without one, messages are kept (keepDueMail)");
  let result: SendResult;
  try {
    await config.transport.sendMail({
      from: config.from,
      to: message.recipient,
      subject: message.subject,
      // A confirmation link's proof is never stored: it is put in here, the same on every attempt.
      html: withConfirmationProofs(message.html),
      text: withConfirmationProofs(message.text),
      messageId: message.messageId,
      date: message.createdAt,
      // RFC 3834: no vacation replies to a receipt.
      headers: { "Auto-Submitted": "auto-generated" },
    });
    result = { ok: true };
  } catch (err) {
    result = describeFailure(err);
  }
  return recordMailAttempt(db, message, result, config.retryDelaysMs);
}

function describeFailure(err: unknown): SendResult & { ok: false } {
  const e = err as { message?: string; responseCode?: number; code?: string };
  const error = String(e.message ?? err)
    .replace(/\s+/g, " ")
    .slice(0, 500);
  // A refused login (535) is the store's configuration, which someone can fix before the next retry.
  const permanent = typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600 && e.code !== "EAUTH";
  return { ok: false, error, permanent };
}

async function recordMailAttempt(
  db: Database,
  message: ClaimedMail,
  result: SendResult,
  retryDelaysMs: readonly number[],
): Promise<MailOutcome> {
  const attempt = message.attemptCount + 1;
  const delayMs = !result.ok && !result.permanent ? retryDelaysMs[attempt - 1] : undefined;
  const outcome: Exclude<MailOutcome, "lost-lease"> = result.ok ? "sent" : delayMs === undefined ? "failed" : "retry";
  const updated = await db
    .update(mailMessages)
    .set({
      attemptCount: attempt,
      status: outcome === "retry" ? "pending" : outcome,
      lockedUntil: null,
      lastError: result.ok ? null : result.error,
      ...(outcome === "sent" ? { sentAt: sql`now()` } : {}),
      ...(outcome === "retry" ? { nextAttemptAt: sql`now() + make_interval(secs => ${delayMs! / 1000})` } : {}),
    })
    .where(
      and(
        eq(mailMessages.id, message.id),
        eq(mailMessages.status, "pending"),
        eq(mailMessages.attemptCount, message.attemptCount),
        eq(mailMessages.lockedUntil, message.lockedUntil),
      ),
    )
    .returning({ id: mailMessages.id });
  // Our lease ran out and another worker took the message: its attempt is the one on record.
  if (updated.length === 0) {
    log.warn({ area: "mail", mailId: message.id, attempt }, "mail attempt outlived its lease; not recorded");
    return "lost-lease";
  }
  if (outcome === "failed") {
    log.warn({ area: "mail", mailId: message.id, attempts: attempt, why: result.ok ? "" : result.error }, "mail failed for good");
  }
  return outcome;
}
