import "server-only";
import type { Database } from "@/lib/db/client";
import { asError, log } from "@/lib/log";
import type { MailConfig } from "@/lib/mail/config";
import { attemptMail, claimDueMail, keepDueMail } from "@/lib/mail/delivery";
import { outboxJob } from "./outbox-job";
import type { BackgroundJob } from "./runner";

/** Messages marked kept per pass without an SMTP server; a full batch means more are waiting. */
const KEEP_BATCH = 500;

/**
 * Works the mail outbox: with an SMTP transport, sends due messages up to `concurrency` at once
 * with retries; without one, marks them `stored` for the app to show.
 */
export function mailJob(
  db: Database,
  config: MailConfig,
  { pollMs, concurrency = 4 }: { pollMs: number; concurrency?: number },
): BackgroundJob {
  if (!config.transport) {
    return { name: "mail", intervalMs: pollMs, run: async () => (await keepDueMail(db, KEEP_BATCH)) === KEEP_BATCH };
  }
  return outboxJob({
    name: "mail",
    pollMs,
    concurrency,
    claim: (limit) => claimDueMail(db, limit, config.leaseMs),
    attempt: (message) => attemptMail(db, message, config),
    onError: (message, err) => log.error({ area: "mail", mailId: message.id, err: asError(err) }, "mail attempt not recorded"),
  });
}
