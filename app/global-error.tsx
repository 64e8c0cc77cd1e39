"use client";

import "./globals.css";

// The root layout itself failed, so there is no language, header or provider: both languages, one button.
export default function GlobalError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="ru">
      <body className="flex min-h-screen items-center justify-center px-4 font-sans">
        <title>GiftKey</title>
        <main className="max-w-md text-center">
          <h1 className="text-2xl font-bold text-white">Что-то пошло не так</h1>
          <p className="mt-2 text-slate-300" lang="en">
            Something went wrong.
          </p>
          <button
            type="button"
            onClick={() => retry()}
            className="mt-6 min-h-11 rounded-md bg-sky-500 px-4 font-semibold text-slate-950 hover:bg-sky-400"
          >
            Повторить · <span lang="en">Retry</span>
          </button>
        </main>
      </body>
    </html>
  );
}
