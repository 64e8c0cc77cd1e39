"use client";

import { useI18n } from "@/components/i18n/i18n-provider";
import { intlLocale } from "@/lib/i18n/config";
import { catalogHref, type CatalogView } from "@/lib/queries/catalog-url";
import { CATALOG_SORTS, STORE_CATEGORIES, type StoreCategory } from "@/lib/schemas/catalog-params";
import { genreLabel } from "./genre-label";

const CHIP =
  "inline-flex min-h-10 shrink-0 items-center whitespace-nowrap rounded-full border px-3.5 text-sm font-medium transition-colors";

/**
 * Genre and featured-category filters. The category chips are links (they work before the script
 * loads and open in a new tab); a plain click is handled in place by `onCategory`.
 */
export function FilterBar({
  view,
  genres,
  regions,
  keep,
  onGenre,
  onRegion,
  onCategory,
  onSort,
}: {
  view: CatalogView;
  genres: string[];
  regions: string[];
  keep: URLSearchParams;
  onGenre: (genre: string | undefined) => void;
  onRegion: (region: string | undefined) => void;
  onCategory: (category: StoreCategory | undefined) => void;
  onSort: (sort: CatalogView["sort"]) => void;
}) {
  const { locale, t } = useI18n();
  const collator = new Intl.Collator(intlLocale(locale));
  const options = genres
    .map((genre) => ({ value: genre, label: genreLabel(genre, t.catalog.genres) }))
    .sort((a, b) => collator.compare(a.label, b.label));
  // A shared link may name a genre the store no longer has: show it rather than pretend "all".
  if (view.genre && !genres.includes(view.genre)) options.unshift({ value: view.genre, label: genreLabel(view.genre, t.catalog.genres) });
  const regionNames = new Intl.DisplayNames(intlLocale(locale), { type: "region", fallback: "code" });
  const regionName = (code: string) => {
    try {
      return regionNames.of(code) ?? code;
    } catch {
      return code;
    }
  };
  const regionOptions = (view.region && !regions.includes(view.region) ? [view.region, ...regions] : regions)
    .map((code) => ({ value: code, label: regionName(code) }))
    .sort((a, b) => collator.compare(a.label, b.label));

  const chip = (category: StoreCategory | undefined, label: string) => {
    const active = view.category === category;
    return (
      <li key={category ?? "all"}>
        <a
          href={catalogHref({ ...view, category, page: 1 }, keep)}
          aria-current={active ? "true" : undefined}
          onClick={(event) => {
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            onCategory(category);
          }}
          className={`${CHIP} ${active ? "border-sky-400 bg-sky-400 text-slate-950" : "border-slate-600 text-slate-200 hover:border-slate-400 hover:bg-slate-800"}`}
        >
          {label}
        </a>
      </li>
    );
  };

  // Two rows on wide screens: what to show (genre, region), then the collection with the order at its
  // right. The markup follows the same order, so Tab goes where the eye reads.
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-3 md:flex-row md:items-center">
        <div className="flex items-center gap-2">
          <label htmlFor="catalog-genre" className="text-sm whitespace-nowrap text-slate-300">
            {t.catalog.genre.label}
          </label>
          <select
            id="catalog-genre"
            value={view.genre ?? ""}
            onChange={(event) => onGenre(event.target.value || undefined)}
            className="h-10 min-w-0 flex-1 rounded-lg border border-slate-600 bg-slate-900 px-3 text-sm text-white md:w-52 md:flex-none"
          >
            <option value="">{t.catalog.genre.all}</option>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor="catalog-region" className="text-sm whitespace-nowrap text-slate-300">
            {t.catalog.region.label}
          </label>
          <select
            id="catalog-region"
            value={view.region ?? ""}
            onChange={(event) => onRegion(event.target.value || undefined)}
            className="h-10 min-w-0 flex-1 rounded-lg border border-slate-600 bg-slate-900 px-3 text-sm text-white md:w-44 md:flex-none"
          >
            <option value="">{t.catalog.region.any}</option>
            {regionOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="flex flex-col gap-3 md:flex-row md:items-center">
        {/* Room inside the scroll box for the chips' focus ring, which the box would otherwise clip. */}
        <nav aria-label={t.catalog.category.label} className="-mx-4 -my-1 overflow-x-auto px-4 py-1 md:-mx-1 md:px-1">
          <ul className="flex gap-2 pb-1 md:flex-wrap md:pb-0">
            {chip(undefined, t.catalog.category.all)}
            {STORE_CATEGORIES.map((category) => chip(category, t.catalog.categories[category]))}
          </ul>
        </nav>
        {/* After the collection in the markup too, where it shows: Tab follows what the eye reads. */}
        <div className="flex items-center gap-2 md:ml-auto">
          <label htmlFor="catalog-sort" className="text-sm whitespace-nowrap text-slate-300">
            {t.catalog.sort.label}
          </label>
          <select
            id="catalog-sort"
            value={view.sort ?? "relevance"}
            onChange={(event) => onSort(event.target.value === "relevance" ? undefined : (event.target.value as CatalogView["sort"]))}
            className="h-10 min-w-0 flex-1 rounded-lg border border-slate-600 bg-slate-900 px-3 text-sm text-white md:w-44 md:flex-none"
          >
            {CATALOG_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t.catalog.sort[sort]}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}
