import type { Permission, StaffRole } from "@/lib/admin/permissions";

// What each role may do in the back office, written out by hand from issue 13's words:
//   admin     everything, staff management
//   operator  orders, fulfilment, refunds, stock
//   marketer  campaigns, promo codes, read-only orders
//   support   read orders, resend e-mails
// The permission tests check lib/admin/permissions.ts and the server's real answers against these
// tables, never against `can()` itself: a wrong entry in the code then fails a test instead of
// being copied into its expectations. Change them only when the rules themselves change.

export type Viewer = StaffRole | "shopper" | "guest";

/** Who holds each permission. A cell the issue does not spell out says why it is so. */
export const EXPECTED_ROLES: { readonly [P in Permission]: readonly StaffRole[] } = {
  "orders:read": ["admin", "operator", "marketer", "support"],
  "orders:fulfil": ["admin", "operator"],
  "orders:refund": ["admin", "operator"],
  // Support resends e-mails to the buyer; a callback goes to a partner's server, which support does not answer for.
  "mail:resend": ["admin", "operator", "support"],
  "callbacks:resend": ["admin", "operator"],
  // The e-mails themselves: what support resends, and what an operator's orders sent.
  "mail:read": ["admin", "operator", "support"],
  "stock:write": ["admin", "operator"],
  // An operator's order names the promo code it used; reading the code's terms is part of reading the order.
  "promo:read": ["admin", "operator", "marketer"],
  "promo:write": ["admin", "marketer"],
  // "Everything": the catalog, partners, the audit log and staff are the admin's alone.
  "catalog:write": ["admin"],
  "campaigns:read": ["admin", "marketer"],
  "partners:read": ["admin"],
  "partners:write": ["admin"],
  "audit:read": ["admin"],
  "staff:manage": ["admin"],
};

const ALL_STAFF: readonly StaffRole[] = ["admin", "operator", "marketer", "support"];

/**
 * Every page under app/admin, with what opening it needs. `{intent}`, `{promo}` and `{mail}` stand
 * for the id of a real order, promo code and kept e-mail. The test that walks app/admin fails when
 * a page is added without a line here.
 */
export const EXPECTED_PAGES: readonly { page: string; path: string; roles: readonly StaffRole[] }[] = [
  { page: "page.tsx", path: "/admin", roles: ALL_STAFF },
  { page: "orders/page.tsx", path: "/admin/orders", roles: EXPECTED_ROLES["orders:read"] },
  { page: "orders/[id]/page.tsx", path: "/admin/orders/{intent}", roles: EXPECTED_ROLES["orders:read"] },
  { page: "queue/page.tsx", path: "/admin/queue", roles: EXPECTED_ROLES["orders:fulfil"] },
  { page: "promo-codes/page.tsx", path: "/admin/promo-codes", roles: EXPECTED_ROLES["promo:read"] },
  { page: "promo-codes/new/page.tsx", path: "/admin/promo-codes/new", roles: EXPECTED_ROLES["promo:write"] },
  { page: "promo-codes/[id]/page.tsx", path: "/admin/promo-codes/{promo}", roles: EXPECTED_ROLES["promo:write"] },
  { page: "gear/page.tsx", path: "/admin/gear", roles: EXPECTED_ROLES["stock:write"] },
  { page: "catalog/page.tsx", path: "/admin/catalog", roles: EXPECTED_ROLES["catalog:write"] },
  { page: "catalog/[appId]/page.tsx", path: "/admin/catalog/620", roles: EXPECTED_ROLES["catalog:write"] },
  { page: "campaigns/page.tsx", path: "/admin/campaigns", roles: EXPECTED_ROLES["campaigns:read"] },
  { page: "campaigns/link/page.tsx", path: "/admin/campaigns/link", roles: EXPECTED_ROLES["campaigns:read"] },
  { page: "partners/page.tsx", path: "/admin/partners", roles: EXPECTED_ROLES["partners:read"] },
  { page: "mail/page.tsx", path: "/admin/mail", roles: EXPECTED_ROLES["mail:read"] },
  { page: "mail/[id]/page.tsx", path: "/admin/mail/{mail}", roles: EXPECTED_ROLES["mail:read"] },
  { page: "audit/page.tsx", path: "/admin/audit", roles: EXPECTED_ROLES["audit:read"] },
  { page: "staff/page.tsx", path: "/admin/staff", roles: EXPECTED_ROLES["staff:manage"] },
];

/** Every route handler under app/admin: a guest gets 401, a shopper or a role without it 403 (JSON). */
export const EXPECTED_ROUTES: readonly { route: string; method: "GET" | "POST"; path: string; roles: readonly StaffRole[] }[] = [
  { route: "orders/export/route.ts", method: "GET", path: "/admin/orders/export", roles: EXPECTED_ROLES["orders:read"] },
  { route: "campaigns/export/route.ts", method: "GET", path: "/admin/campaigns/export", roles: EXPECTED_ROLES["campaigns:read"] },
  { route: "catalog/import/route.ts", method: "POST", path: "/admin/catalog/import", roles: EXPECTED_ROLES["catalog:write"] },
];

/** Every server action under app/admin (`<file> <export>`) and the permission it must demand. */
export const EXPECTED_ACTIONS: Readonly<Record<string, Permission>> = {
  "app/admin/catalog/actions.ts setGameHiddenAction": "catalog:write",
  "app/admin/catalog/actions.ts setGameRegionsAction": "catalog:write",
  "app/admin/gear/actions.ts adjustGearStockAction": "stock:write",
  "app/admin/gear/actions.ts createGearItemAction": "stock:write",
  "app/admin/orders/actions.ts refundOrderAction": "orders:refund",
  "app/admin/orders/actions.ts resendOrderMailAction": "mail:resend",
  "app/admin/orders/actions.ts resendOrderCallbackAction": "callbacks:resend",
  "app/admin/partners/actions.ts revokePartnerTokenAction": "partners:write",
  "app/admin/partners/actions.ts makePartnerAction": "partners:write",
  "app/admin/partners/actions.ts removePartnerAction": "partners:write",
  "app/admin/partners/actions.ts setPartnerHoldCapAction": "partners:write",
  "app/admin/promo-codes/actions.ts createPromoCodeAction": "promo:write",
  "app/admin/promo-codes/actions.ts updatePromoCodeAction": "promo:write",
  "app/admin/promo-codes/actions.ts disablePromoCodeAction": "promo:write",
  "app/admin/promo-codes/actions.ts enablePromoCodeAction": "promo:write",
  "app/admin/queue/actions.ts takeDeliveryAction": "orders:fulfil",
  "app/admin/queue/actions.ts releaseDeliveryAction": "orders:fulfil",
  "app/admin/queue/actions.ts reportDeliveryAction": "orders:fulfil",
  "app/admin/queue/actions.ts retryDeliveryAction": "orders:fulfil",
  "app/admin/staff/actions.ts grantStaffAction": "staff:manage",
  "app/admin/staff/actions.ts revokeStaffAction": "staff:manage",
};
