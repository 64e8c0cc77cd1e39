import Link from "next/link";
import type { Messages } from "@/lib/i18n/messages";

export function SiteFooter({ t }: { t: Messages }) {
  return (
    <footer className="mt-auto border-t border-slate-800 bg-slate-900">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm text-slate-400 sm:flex-row sm:items-center sm:justify-between">
        <p>
          <span className="font-semibold text-slate-200">GiftKey</span> · {t.common.footer.tagline}
        </p>
        <nav aria-label={t.common.footer.links}>
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            <li>
              <Link prefetch={false} href="/" className="hover:text-white">
                {t.common.nav.catalog}
              </Link>
            </li>
            <li>
              <Link prefetch={false} href="/gear" className="hover:text-white">
                {t.common.nav.gear}
              </Link>
            </li>
            <li>
              <Link prefetch={false} href="/docs/api" className="hover:text-white">
                {t.common.nav.api}
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
