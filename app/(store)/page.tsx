import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { CatalogBrowser } from "@/components/catalog/catalog-browser";
import { catalogTitle } from "@/components/catalog/catalog-title";
import { I18nProvider } from "@/components/i18n/i18n-provider";
import { getDb } from "@/lib/db/client";
import { pickMessages } from "@/lib/i18n/messages";
import { getMessages } from "@/lib/i18n/server";
import { catalogHref, GIFT_REGION_COOKIE, readCatalogView, readRegion, toCatalogQuery } from "@/lib/queries/catalog-url";
import { listCatalog, listGenres, listGiftRegions } from "@/lib/services/catalog";
import { siteOrigin } from "@/lib/site-origin";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const [{ t }, view] = await Promise.all([getMessages(), searchParams.then(readCatalogView)]);
  return {
    title: catalogTitle(view.q, t),
    description: t.catalog.description,
    // Filters and pages are pages of their own for search engines; a search and UTM tags are not.
    alternates: { canonical: catalogHref({ genre: view.genre, category: view.category, page: view.page }) },
    openGraph: { title: t.catalog.heading, description: t.catalog.description, type: "website", siteName: "GiftKey" },
  };
}

// The first page of the view in the URL is rendered here and handed to the browser's catalog cache,
// so the browser shows it at once and fetches only when the shopper changes the view.
export default async function CatalogPage({ searchParams }: { searchParams: SearchParams }) {
  const [{ locale, t }, params, origin, jar] = await Promise.all([getMessages(), searchParams, siteOrigin(), cookies()]);
  const view = readCatalogView(params);
  // The region the shopper chose last time, when the link names none: the URL stays the state.
  const remembered = readRegion(jar.get(GIFT_REGION_COOKIE)?.value);
  if (!view.region && remembered) {
    const keep = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (Array.isArray(v) ? v : [v ?? ""]).map((x) => [k, x])));
    redirect(catalogHref({ ...view, region: remembered }, keep));
  }
  const query = toCatalogQuery(view, locale);
  const db = getDb();
  const [page, genres, regions] = await Promise.all([listCatalog(db, query, origin), listGenres(db), listGiftRegions(db)]);

  return (
    <main id="main" className="mx-auto w-full max-w-6xl px-4 pt-6 pb-16 sm:pt-10">
      <h1 className="text-2xl font-bold tracking-tight text-white sm:text-3xl">{t.catalog.heading}</h1>
      <p className="mt-1 text-slate-300">{t.catalog.intro}</p>
      <div className="mt-5">
        <I18nProvider locale={locale} messages={pickMessages(t, ["catalog"])}>
          <CatalogBrowser genres={genres} regions={regions} initial={{ query, data: page }} />
        </I18nProvider>
      </div>
    </main>
  );
}
