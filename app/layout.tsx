import type { Metadata } from "next";
import Link from "next/link";
import { AccountNav } from "@/components/account/account-nav";
import { Providers } from "@/components/providers";
import { getSessionUser } from "@/lib/auth/session";
import { getMessages } from "@/lib/i18n/server";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return {
    title: { default: t.common.siteTitle, template: "%s · GiftKey" },
    description: t.common.siteDescription,
  };
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [{ locale, t }, user] = await Promise.all([getMessages(), getSessionUser()]);
  return (
    <html lang={locale}>
      <body className="min-h-screen font-sans">
        <Providers locale={locale}>
          <header className="border-b border-slate-800 bg-slate-900/80">
            <nav className="mx-auto flex max-w-6xl items-center gap-6 px-4 py-3" aria-label={t.common.mainNav}>
              <Link href="/" className="text-lg font-bold tracking-tight text-sky-300">
                GiftKey
              </Link>
              <Link href="/docs/api" className="text-sm text-slate-300 hover:text-white">
                {t.common.nav.api}
              </Link>
              <div className="ml-auto">
                <AccountNav user={user} />
              </div>
            </nav>
          </header>
          {children}
        </Providers>
      </body>
    </html>
  );
}
