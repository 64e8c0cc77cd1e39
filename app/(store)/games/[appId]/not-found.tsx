import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { getMessages } from "@/lib/i18n/server";

// An unknown or malformed appId: say so and offer the way to find the game.
export default async function GameNotFound() {
  const { t } = await getMessages();
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <p className="text-5xl font-black text-sky-300">404</p>
      <h1 className="mt-4 text-2xl font-bold text-white">{t.game.notFound.title}</h1>
      <p className="mt-3 text-slate-300">{t.game.notFound.body}</p>
      <form action="/" method="get" role="search" className="mt-8 flex w-full max-w-md flex-wrap gap-2 text-left">
        <label htmlFor="not-found-search" className="w-full text-sm text-slate-300">
          {t.game.notFound.search}
        </label>
        <input
          id="not-found-search"
          name="q"
          type="search"
          placeholder={t.catalog.search.placeholder}
          className="h-11 min-w-0 flex-1 rounded-lg border border-slate-600 bg-slate-900 px-3 text-white placeholder:text-slate-400"
        />
        <button type="submit" className={buttonClass("primary")}>
          {t.game.notFound.find}
        </button>
      </form>
      <Link href="/" className="mt-6 text-sky-300 underline-offset-4 hover:underline">
        {t.game.notFound.back}
      </Link>
    </main>
  );
}
