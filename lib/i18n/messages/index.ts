import type { Locale } from "../config";
import { account } from "./account";
import { admin } from "./admin";
import { adminCampaigns } from "./admin-campaigns";
import { adminCatalog } from "./admin-catalog";
import { adminOrders } from "./admin-orders";
import { adminPartners } from "./admin-partners";
import { catalog } from "./catalog";
import { checkout } from "./checkout";
import { common } from "./common";
import { errors } from "./errors";
import { game } from "./game";
import { gear } from "./gear";
import { orders } from "./orders";
import { pay } from "./pay";

const namespaces = {
  common,
  catalog,
  game,
  checkout,
  gear,
  account,
  pay,
  orders,
  errors,
  admin,
  adminOrders,
  adminCatalog,
  adminCampaigns,
  adminPartners,
};

type Namespaces = typeof namespaces;
export type Messages = { [N in keyof Namespaces]: Namespaces[N]["ru"] };

function forLocale(locale: Locale): Messages {
  return Object.fromEntries(Object.entries(namespaces).map(([name, m]) => [name, m[locale]])) as Messages;
}

export const messages: Record<Locale, Messages> = { ru: forLocale("ru"), en: forLocale("en") };

const ADMIN_NAMESPACES = ["admin", "adminOrders", "adminCatalog", "adminCampaigns", "adminPartners"] as const;

/**
 * The texts the store's own pages hand to the browser: the back office's are left out of every
 * shopper's page payload (the /admin layout provides the whole set to its own pages).
 */
export function storefrontMessages(t: Messages): Messages {
  const copy: Partial<Messages> = { ...t };
  for (const name of ADMIN_NAMESPACES) delete copy[name];
  return copy as Messages;
}
