import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "GiftKey — игры в подарок и игровые предметы", template: "%s · GiftKey" },
  description: "Магазин цифровых игр: подарки друзьям и игровые предметы, цены в рублях.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="ru">
      <body className="min-h-screen font-sans">
        <header className="border-b border-slate-800 bg-slate-900/80">
          <nav className="mx-auto flex max-w-6xl items-center gap-6 px-4 py-3" aria-label="Главное меню">
            <Link href="/" className="text-lg font-bold tracking-tight text-sky-300">
              GiftKey
            </Link>
            <Link href="/docs/api" className="text-sm text-slate-300 hover:text-white">
              API
            </Link>
          </nav>
        </header>
        {children}
      </body>
    </html>
  );
}
