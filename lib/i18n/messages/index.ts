import type { Locale } from "../config";
import { account } from "./account";
import { catalog } from "./catalog";
import { checkout } from "./checkout";
import { common } from "./common";
import { errors } from "./errors";
import { game } from "./game";
import { gear } from "./gear";
import { orders } from "./orders";
import { pay } from "./pay";

const namespaces = { common, catalog, game, checkout, gear, account, pay, orders, errors };

type Namespaces = typeof namespaces;
export type Messages = { [N in keyof Namespaces]: Namespaces[N]["ru"] };

function forLocale(locale: Locale): Messages {
  return Object.fromEntries(Object.entries(namespaces).map(([name, m]) => [name, m[locale]])) as Messages;
}

export const messages: Record<Locale, Messages> = { ru: forLocale("ru"), en: forLocale("en") };
