import { isAuditAction, isAuditField, isAuditTargetType } from "@/lib/admin/audit-catalog";
import { deliveryFailureText, deliveryStepText, reportNoteText } from "@/lib/admin/order-timeline";
import { intlLocale, type Locale } from "@/lib/i18n/config";
import { STORE_TIME_ZONE } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";
import { formatRub } from "@/lib/money";

// The audit log page's words for an entry: its action, its target, and each field that changed
// with its value before and after, in the viewer's language. Values that are codes (a state, a
// role, a step) get their names; amounts in kopecks are roubles; instants are dates.

export interface AuditChange {
  /** The record's key, as stored. */
  key: string;
  /** Its name in the viewer's language. */
  field: string;
  /** The value before, worded; absent when the entry has no such value before (a creation). */
  before?: string;
  /** The value after; absent when there is none after (a removal, or context kept only before). */
  after?: string;
}

interface EntryLike {
  action: string;
  targetType: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  note: string | null;
}

export function auditActionName(action: string, t: Messages): string {
  return isAuditAction(action) ? t.admin.audit.actions[action] : action;
}

export function auditTargetName(targetType: string, t: Messages): string {
  return isAuditTargetType(targetType) ? t.admin.audit.targets[targetType] : targetType;
}

const INSTANTS = new Set(["validFrom", "validUntil", "disabledAt", "revokedAt", "nextAttemptAt"]);

/** One value of a field, read with the rest of its record (a promo code's value needs its kind). */
function valueText(entry: EntryLike, key: string, value: unknown, record: Record<string, unknown>, t: Messages, locale: Locale): string {
  if (value === undefined || value === null) return "—";
  if (typeof value === "boolean") return value ? t.adminOrders.order.yes : t.adminOrders.order.no;
  if (Array.isArray(value)) return value.length ? value.map(String).join(", ") : "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const area = entry.action.split(".")[0];
  const named = (names: Record<string, string>) => names[text] ?? text;
  if (INSTANTS.has(key)) {
    if (text === "now") return t.admin.audit.now;
    const date = new Date(text);
    return Number.isNaN(date.getTime())
      ? text
      : new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "short", timeStyle: "short", timeZone: STORE_TIME_ZONE }).format(date);
  }
  switch (key) {
    case "status":
      if (area === "order") return named(t.adminOrders.states);
      if (area === "mail") return named(t.adminOrders.mailStatuses);
      if (area === "callback") return named(t.adminOrders.callbackStatuses);
      if (area === "delivery") return named(t.adminOrders.deliveryStatuses);
      return text;
    case "kind":
      if (area === "promo_code") return named(t.adminCatalog.promo.kinds);
      if (area === "mail") return named(t.adminOrders.mailKinds);
      return text;
    case "refundReason":
      return named(t.adminOrders.order.refundReasons);
    case "step":
      return deliveryStepText(text, t);
    case "failureReason":
      return deliveryFailureText(text, t);
    case "role":
      return named(t.admin.roles);
    case "appliesTo":
      return named(t.adminCatalog.promo.targets);
    case "price":
    case "paymentAmount":
      return typeof value === "number" ? formatRub(value, intlLocale(locale)) : text;
    case "value":
      if (typeof value !== "number") return text;
      return record.kind === "fixed" ? formatRub(value, intlLocale(locale)) : `${value} %`;
    default:
      return text;
  }
}

/**
 * The fields that differ between before and after (every field when the entry has only one of
 * them), each named and with its values worded; a side that does not hold the field is left out
 * rather than shown as "—" (a created code's terms, a refund's amount recorded only before).
 */
export function auditChanges(entry: EntryLike, t: Messages, locale: Locale): AuditChange[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const fields: Record<string, string> = t.admin.audit.fields;
  return keys
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]) || !entry.before || !entry.after)
    .map((k) => ({
      key: k,
      field: isAuditField(k) ? fields[k]! : k,
      ...(k in before ? { before: valueText(entry, k, before[k], before, t, locale) } : {}),
      ...(k in after ? { after: valueText(entry, k, after[k], after, t, locale) } : {}),
    }));
}

/** The entry's note: a delivery report's is what was reported (a code), anyone else's is their own words. */
export function auditNoteText(entry: EntryLike, t: Messages): string | null {
  if (!entry.note) return null;
  return entry.action === "delivery.report" ? reportNoteText(entry.note, t) : entry.note;
}
