import Link from "next/link";

// The storefront catalog replaces this page; until then it points at what exists.
export default function HomePage() {
  return (
    <main className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-3xl font-bold">GiftKey</h1>
      <p className="mt-3 max-w-2xl text-slate-300">
        Игры в подарок и игровые предметы, цены в рублях. Витрина магазина скоро появится здесь; API для партнёров уже
        работает.
      </p>
      <p className="mt-6">
        <Link href="/docs/api" className="rounded bg-sky-600 px-4 py-2 font-medium text-white hover:bg-sky-500">
          Справочник API
        </Link>
      </p>
    </main>
  );
}
