import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";
import { configuredOrigin } from "@/lib/http/public-origin";
import { parseRetrySchedule } from "@/lib/webhooks/schedule";

/** `MAIL_FROM`, or `GiftKey <no-reply@{the store's host}>`. */
export function mailFrom(): string {
  return env.MAIL_FROM ?? `GiftKey <no-reply@${new URL(configuredOrigin()).hostname}>`;
}

/** The domain of the From address: the right side of every Message-ID the store makes. */
export function mailDomain(from = mailFrom()): string {
  const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf("@") + 1).trim() || "localhost";
}

export interface MailConfig {
  /** Where messages go; null keeps them in the database (`stored`) for the app to show. */
  transport: Transporter | null;
  from: string;
  /** Delay before each retry; the attempt after the last one is the final one. */
  retryDelaysMs: readonly number[];
  /** How long a claim keeps other workers off a message; longer than any attempt can take. */
  leaseMs: number;
}

/**
 * Longer than one SMTP conversation can take (each of its phases is cut at the timeout), so no
 * second worker takes over a message while the first is still sending it.
 */
export function mailLeaseFor(timeoutMs: number): number {
  return 2 * timeoutMs + 5_000;
}

/** An SMTP transport with every wait bounded by `timeoutMs`: connecting, the greeting, and each reply. */
export function smtpTransport(url: string, timeoutMs: number): Transporter {
  return nodemailer.createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
}

export function mailConfigFromEnv(): MailConfig {
  return {
    transport: env.SMTP_URL ? smtpTransport(env.SMTP_URL, env.MAIL_TIMEOUT_MS) : null,
    from: mailFrom(),
    retryDelaysMs: parseRetrySchedule(env.MAIL_RETRY_SCHEDULE) ?? [],
    leaseMs: mailLeaseFor(env.MAIL_TIMEOUT_MS),
  };
}

/** Whether mail is kept in the database for the app to show rather than sent (no SMTP_URL). */
export function mailIsKept(): boolean {
  return !env.SMTP_URL;
}
