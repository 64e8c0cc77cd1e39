// What the audit log may record: every action, target type and before/after field by name. The
// services can write only these (recordAudit's types), and the back office names each one in
// Russian and English (admin.audit in lib/i18n/messages), so a new kind of change cannot reach the
// log page as a raw code. Pure data, safe in the browser.

export const AUDIT_ACTIONS = [
  "order.refund",
  "mail.resend",
  "callback.resend",
  "delivery.take",
  "delivery.release",
  "delivery.report",
  "delivery.retry",
  "promo_code.create",
  "promo_code.update",
  "promo_code.disable",
  "promo_code.enable",
  "gear.create",
  "gear.stock",
  "game.hide",
  "game.show",
  "game.regions",
  "catalog.import",
  "token.revoke",
  "staff.grant",
  "staff.revoke",
  "partner.add",
  "partner.remove",
  "partner.hold_cap",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ["intent", "promo_code", "gear_item", "game", "catalog", "api_token", "user"] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The keys of the before and after records. */
export const AUDIT_FIELDS = [
  // orders, e-mails, callbacks, deliveries
  "status",
  "paymentAmount",
  "refundReason",
  "providerRefundId",
  "mailId",
  "kind",
  "attemptCount",
  "written",
  "deliveryId",
  "resendOf",
  "assignedTo",
  "step",
  "nextAttemptAt",
  "failureReason",
  // promo codes
  "code",
  "value",
  "appliesTo",
  "appIds",
  "validFrom",
  "validUntil",
  "maxUses",
  "disabledAt",
  // gear
  "platformAppId",
  "item",
  "title",
  "price",
  "stock",
  // games and the catalog
  "hidden",
  "giftRegions",
  "imported",
  "updated",
  "errors",
  "warnings",
  // partners' tokens
  "name",
  "prefix",
  "owner",
  "revokedAt",
  // staff
  "email",
  "role",
  "accountCreated",
  "waitsForConfirmation",
  // partners
  "partner",
  "holdCap",
] as const;
export type AuditField = (typeof AUDIT_FIELDS)[number];

/** A before or after record: only catalogued keys. */
export type AuditRecord = { [K in AuditField]?: unknown };

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

export function isAuditTargetType(value: string): value is AuditTargetType {
  return (AUDIT_TARGET_TYPES as readonly string[]).includes(value);
}

export function isAuditField(value: string): value is AuditField {
  return (AUDIT_FIELDS as readonly string[]).includes(value);
}
