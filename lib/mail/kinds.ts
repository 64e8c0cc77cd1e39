import { MAIL_KINDS } from "@/lib/db/schema";

export { MAIL_KINDS };

/**
 * What a message tells the shopper: `receipt` when the intent is paid, `delivered` when what they
 * bought arrived, `delivery_failed_refunded` when it could not be delivered and the money went
 * back, `refunded` when the order was refunded otherwise.
 */
export type MailKind = (typeof MAIL_KINDS)[number];
