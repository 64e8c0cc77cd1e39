import Link from "next/link";
import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";
import { LanguageSwitch } from "./language-switch";
import { NavLink } from "./nav-link";

/**
 * `account` is the header's account corner (sign-in, or the signed-in shopper's menu); until it is
 * given, the Account page is a plain link in the navigation.
 */
export function SiteHeader({ locale, t, account }: { locale: Locale; t: Messages; account?: React.ReactNode }) {
  return (
    <header className="border-b border-slate-800 bg-slate-900">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2">
        <Link
          href="/"
          aria-label={t.common.home}
          className="flex min-h-10 items-center gap-2 rounded-md text-lg font-bold tracking-tight text-white"
        >
          <GiftIcon />
          <span aria-hidden="true">
            Gift<span className="text-sky-300">Key</span>
          </span>
        </Link>
        <nav aria-label={t.common.mainNav} className="order-last -mx-2 w-full overflow-x-auto sm:order-none sm:mx-0 sm:w-auto sm:flex-1">
          <ul className="flex gap-1">
            <li>
              <NavLink href="/">{t.common.nav.catalog}</NavLink>
            </li>
            <li>
              <NavLink href="/gear">{t.common.nav.gear}</NavLink>
            </li>
            <li>
              <NavLink href="/docs/api">{t.common.nav.api}</NavLink>
            </li>
            {!account && (
              <li>
                <NavLink href="/account">{t.common.nav.account}</NavLink>
              </li>
            )}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-3 sm:ml-0">
          {account}
          <LanguageSwitch locale={locale} t={t} />
        </div>
      </div>
    </header>
  );
}

function GiftIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-6 fill-none stroke-sky-300"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <rect x="3" y="8" width="18" height="4" rx="1" />
      <path d="M12 8v13M19 12v7a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2v-7M7.5 8a2.5 2.5 0 0 1 0-5C11 3 12 8 12 8s1-5 4.5-5a2.5 2.5 0 0 1 0 5" />
    </svg>
  );
}
