// Staff roles and what each may do in the back office (/admin). Pure data, safe in the browser: the
// server checks these on every page, server action and route; the pages only use them to hide what
// the viewer could not do anyway.

export const STAFF_ROLES = ["admin", "operator", "marketer", "support"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const PERMISSIONS = [
  /** The order list, an order's page and its timeline, the CSV export. */
  "orders:read",
  /** The fulfilment queue: take an order, mark it delivered or failed, retry a delivery. */
  "orders:fulfil",
  "orders:refund",
  /** Send an order's e-mail to the buyer again (or write one that is due and missing). */
  "mail:resend",
  /** Send an order's callback to the partner again: a new delivery of the same event. */
  "callbacks:resend",
  "stock:write",
  "promo:read",
  "promo:write",
  /** Import a catalog file, hide or show a game, edit its regions. */
  "catalog:write",
  "campaigns:read",
  "partners:read",
  /** Revoke a partner's API token. */
  "partners:write",
  "audit:read",
  /** The messages the store would have sent, when no SMTP server is configured. */
  "mail:read",
  "staff:manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  admin: PERMISSIONS,
  operator: ["orders:read", "orders:fulfil", "orders:refund", "mail:resend", "callbacks:resend", "stock:write", "promo:read", "mail:read"],
  marketer: ["orders:read", "campaigns:read", "promo:read", "promo:write"],
  // A callback goes to a partner's server, not to the buyer: support answers buyers, so e-mail only.
  support: ["orders:read", "mail:resend", "mail:read"],
};

export function can(role: StaffRole | null | undefined, permission: Permission): boolean {
  return role ? ROLE_PERMISSIONS[role].includes(permission) : false;
}

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}

/**
 * The back office's sections: the navigation shows those the viewer may open, and the permission
 * tests open every one as every role. A page checks its own permission on the server regardless.
 */
export const ADMIN_SECTIONS = [
  { key: "orders", path: "/admin/orders", permission: "orders:read" },
  { key: "queue", path: "/admin/queue", permission: "orders:fulfil" },
  { key: "promo", path: "/admin/promo-codes", permission: "promo:read" },
  { key: "stock", path: "/admin/gear", permission: "stock:write" },
  { key: "catalog", path: "/admin/catalog", permission: "catalog:write" },
  { key: "campaigns", path: "/admin/campaigns", permission: "campaigns:read" },
  { key: "partners", path: "/admin/partners", permission: "partners:read" },
  { key: "mail", path: "/admin/mail", permission: "mail:read" },
  { key: "audit", path: "/admin/audit", permission: "audit:read" },
  { key: "staff", path: "/admin/staff", permission: "staff:manage" },
] as const satisfies readonly { key: string; path: string; permission: Permission }[];
export type AdminSectionKey = (typeof ADMIN_SECTIONS)[number]["key"];
