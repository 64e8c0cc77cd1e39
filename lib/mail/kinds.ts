import { ACCOUNT_MAIL_KINDS, INTENT_MAIL_KINDS, MAIL_KINDS } from "@/lib/db/schema";

export { ACCOUNT_MAIL_KINDS, INTENT_MAIL_KINDS, MAIL_KINDS };

/**
 * What a message about an order tells the shopper: `receipt` when the intent is paid, `delivered`
 * when what they bought arrived, `delivery_failed_refunded` when it could not be delivered and the
 * money went back, `refunded` when the order was refunded otherwise.
 */
export type MailKind = (typeof INTENT_MAIL_KINDS)[number];
/** Mail about the account: `email_confirmation`, the link that proves the address. */
export type AccountMailKind = (typeof ACCOUNT_MAIL_KINDS)[number];
