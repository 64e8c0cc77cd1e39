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

export type Namespace = keyof Messages;

/**
 * The namespaces `names` of `t`, for the client components of one page: every text handed to an
 * I18nProvider travels in that page's payload, so a page hands over only what its components read.
 */
export function pickMessages<N extends Namespace>(t: Messages, names: readonly N[]): Pick<Messages, N> {
  return Object.fromEntries(names.map((name) => [name, t[name]])) as Pick<Messages, N>;
}

/**
 * Every text of the store's own pages, for those whose forms may read any of them (game, gear,
 * account); the back office's are left out (the /admin layout provides the whole set to its pages).
 */
export function storefrontMessages(t: Messages): Messages {
  const copy: Partial<Messages> = { ...t };
  for (const name of ADMIN_NAMESPACES) delete copy[name];
  return copy as Messages;
}
