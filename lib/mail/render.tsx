import "server-only";
import { render } from "@react-email/render";
import { format } from "@/lib/i18n/format";
import { intlLocale } from "@/lib/i18n/config";
import { mail } from "@/lib/i18n/messages/mail";
import { formatRub } from "@/lib/money";
import { ConfirmationMail, type ConfirmationMailData } from "./templates/confirmation-mail";
import { IntentMail, mailTitle, type IntentMailData } from "./templates/intent-mail";

export type { ConfirmationMailData, IntentMailData };

export interface RenderedMail {
  subject: string;
  html: string;
  /** The plain-text part, for clients that show no HTML (and for spam filters, which want both). */
  text: string;
}

/** A message about an intent in its shopper's language: subject, HTML part and plain-text part. */
export async function renderIntentMail(data: IntentMailData): Promise<RenderedMail> {
  const subject = format(mail[data.locale].kinds[data.kind].subject, {
    title: mailTitle(data),
    amount: formatRub(data.amounts.total, intlLocale(data.locale)),
  });
  const element = <IntentMail data={data} />;
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject, html, text };
}

/** The e-mail confirmation in the account's language (its link's proof still a placeholder). */
export async function renderConfirmationMail(data: ConfirmationMailData): Promise<RenderedMail> {
  const element = <ConfirmationMail data={data} />;
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject: mail[data.locale].confirmation.subject, html, text };
}
