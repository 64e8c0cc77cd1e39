import type { Metadata, Viewport } from "next";
import { Suspense } from "react";
import { AccountNav } from "@/components/account/account-nav";
import { Providers } from "@/components/providers";
import { ArrivalNotice } from "@/components/site/arrival-notice";
import { storePricing } from "@/lib/store-pricing";
import { SiteFooter } from "@/components/site/site-footer";
import { SiteHeader } from "@/components/site/site-header";
import { getSessionUser } from "@/lib/auth/session";
import { pickMessages } from "@/lib/i18n/messages";
import { getMessages } from "@/lib/i18n/server";
import { siteOrigin } from "@/lib/site-origin";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const [{ t }, origin] = await Promise.all([getMessages(), siteOrigin()]);
  return {
    // Relative Open Graph and canonical URLs resolve against the origin the visitor used.
    metadataBase: new URL(origin),
    title: { default: t.common.siteTitle, template: "%s · GiftKey" },
    description: t.common.siteDescription,
  };
}

export const viewport: Viewport = { themeColor: "#0f172a", colorScheme: "dark" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [{ locale, t }, user] = await Promise.all([getMessages(), getSessionUser()]);
  return (
    <html lang={locale}>
      <body className="flex min-h-screen flex-col font-sans">
        <a
          href="#content"
          className="sr-only z-50 rounded-md bg-sky-300 px-4 py-2 font-semibold text-slate-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          {t.common.skipToContent}
        </a>
        <Providers locale={locale} messages={pickMessages(t, ["common"])} pricing={storePricing()}>
          <SiteHeader locale={locale} t={t} account={<AccountNav user={user} labels={t.account.nav} />} />
          {/* The skip link's target: pages keep their own <main>; this lands right before it. */}
          <div id="content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
            <Suspense fallback={null}>
              <ArrivalNotice />
            </Suspense>
            {children}
          </div>
          <SiteFooter t={t} />
        </Providers>
      </body>
    </html>
  );
}
