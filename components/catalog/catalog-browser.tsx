"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { useStorePricing } from "@/components/store-pricing";
import { buttonClass } from "@/components/ui/button";
import { Pagination } from "@/components/ui/pagination";
import { format, plural } from "@/lib/i18n/format";
import { useCatalogPage } from "@/lib/queries/catalog";
import { catalogHref, GIFT_REGION_COOKIE, pageCount, readCatalogView, toCatalogQuery, type CatalogView } from "@/lib/queries/catalog-url";
import type { CatalogQuery, CatalogResponse } from "@/lib/schemas/catalog";
import { catalogTitle } from "./catalog-title";
import { FilterBar } from "./filter-bar";
import { GameCard, GameCardSkeleton } from "./game-card";
import { SearchBox } from "./search-box";

/** A fetch faster than this keeps the old results (dimmed) instead of flashing skeletons. */
const SKELETON_DELAY_MS = 250;
/** Cards loaded eagerly: the first rows are on screen at once, on a phone and on a desktop. */
const EAGER_CARDS = 4;

type HistoryMode = "push" | "replace";

/**
 * The catalog's interactive part. Its state is the URL: filters and pages push a history entry,
 * search-as-you-type replaces it (after a first push, so Back leaves the search). URLs change through
 * the History API, which Next's router follows without a server round trip; useCatalogPage fetches
 * the page and aborts a request that a newer one made stale.
 */
export function CatalogBrowser({
  genres,
  regions,
  initial,
}: {
  genres: string[];
  regions: string[];
  /** The page the server rendered, for the view in the URL it was rendered for. */
  initial: { query: CatalogQuery; data: CatalogResponse };
}) {
  const { locale, t } = useI18n();
  const pricing = useStorePricing();
  const searchParams = useSearchParams();
  const view = useMemo(() => readCatalogView(searchParams), [searchParams]);
  const query = toCatalogQuery(view, locale);
  const result = useCatalogPage(query, initial);
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  const update = (patch: Partial<CatalogView>, mode: HistoryMode) => {
    const current = new URLSearchParams(window.location.search);
    const next = { ...readCatalogView(current), page: 1, ...patch };
    const href = catalogHref(next, current);
    if (href === window.location.pathname + window.location.search) return;
    if (mode === "push") window.history.pushState(null, "", href);
    else window.history.replaceState(null, "", href);
  };

  useEffect(() => {
    document.title = `${catalogTitle(view.q, t)} · GiftKey`;
  }, [view.q, t]);

  // While the next page loads the previous one stays, dimmed; skeletons only if that takes a while.
  const updating = result.isPlaceholderData;
  const showSkeleton = useDelayedFlag(result.isPending || updating, SKELETON_DELAY_MS);
  const data = result.data;
  const pages = data ? pageCount(data.total) : 1;
  const keep = useMemo(() => new URLSearchParams(searchParams), [searchParams]);

  return (
    <>
      <div className="flex flex-col gap-3">
        <SearchBox
          value={view.q ?? ""}
          filters={{ genre: view.genre, category: view.category }}
          onSearch={(text) => {
            // Starting or clearing a search adds a history entry; refining one replaces it, so Back
            // returns to the view before the search rather than through every word typed.
            const typed = readCatalogView(new URLSearchParams(window.location.search)).q;
            update({ q: text || undefined }, typed && text ? "replace" : "push");
          }}
        />
        <FilterBar
          view={view}
          genres={genres}
          regions={regions}
          keep={keep}
          onGenre={(genre) => update({ genre }, "push")}
          onRegion={(region) => {
            rememberRegion(region);
            update({ region }, "push");
          }}
          onCategory={(category) => update({ category }, "push")}
          onSort={(sort) => update({ sort }, "push")}
        />
      </div>

      <section aria-labelledby="catalog-results" className="mt-6">
        <h2
          id="catalog-results"
          ref={resultsHeading}
          tabIndex={-1}
          aria-live="polite"
          aria-atomic="true"
          className={`flex min-h-7 flex-wrap items-baseline gap-x-3 gap-y-1 transition-opacity ${updating ? "opacity-60" : ""}`}
        >
          <span className="text-lg font-semibold text-white">
            {data ? plural(locale, data.total, t.catalog.total) : result.isError ? t.catalog.results : t.common.loading}
          </span>
          {data && pages > 1 && view.page <= pages && (
            <span className="text-sm font-normal text-slate-400">{format(t.catalog.pageOf, { page: view.page, pages })}</span>
          )}
        </h2>

        {result.isError && !result.isFetching ? (
          <CatalogError onRetry={() => result.refetch()} />
        ) : showSkeleton || !result.data ? (
          <ul aria-busy="true" aria-label={t.common.loading} className={GRID}>
            {Array.from({ length: 8 }, (_, i) => (
              <GameCardSkeleton key={i} />
            ))}
          </ul>
        ) : result.data.games.length === 0 ? (
          <CatalogEmpty view={view} total={result.data.total} keep={keep} onNavigate={update} />
        ) : (
          <ul aria-busy={updating} className={`${GRID} transition-opacity ${updating ? "opacity-60" : ""}`}>
            {result.data.games.map((game, i) => (
              <GameCard key={game.appId} game={game} pricing={pricing} locale={locale} t={t} eager={i < EAGER_CARDS} />
            ))}
          </ul>
        )}

        {data && data.games.length > 0 && (
          <Pagination
            page={view.page}
            pageCount={pages}
            hrefFor={(page) => catalogHref({ ...view, page }, keep)}
            onNavigate={(page, event) => {
              event.preventDefault();
              update({ ...view, page }, "push");
              // Keyboard and screen-reader users land on the new page's results, not on the pager.
              resultsHeading.current?.focus({ preventScroll: true });
              resultsHeading.current?.scrollIntoView({ block: "start" });
            }}
            labels={t.catalog.pagination}
          />
        )}
      </section>
    </>
  );
}

const GRID = "mt-4 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4";

function CatalogEmpty({
  view,
  total,
  keep,
  onNavigate,
}: {
  view: CatalogView;
  total: number;
  keep: URLSearchParams;
  onNavigate: (patch: Partial<CatalogView>, mode: HistoryMode) => void;
}) {
  const { t } = useI18n();
  const link = (patch: Partial<CatalogView>, label: string, variant: "primary" | "secondary") => (
    <a
      href={catalogHref({ ...view, page: 1, ...patch }, keep)}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        onNavigate(patch, "push");
      }}
      className={buttonClass(variant)}
    >
      {label}
    </a>
  );
  if (total > 0) {
    const pages = pageCount(total);
    return (
      <div className="mt-6 rounded-lg border border-slate-800 bg-slate-900 p-6 text-center">
        <p className="text-lg font-semibold text-white">{t.catalog.pastEnd.title}</p>
        <p className="mt-2 text-slate-300">{format(t.catalog.pastEnd.body, { page: view.page, pages })}</p>
        <div className="mt-4 flex justify-center">{link({ page: pages }, t.catalog.pastEnd.last, "primary")}</div>
      </div>
    );
  }
  const filtered = Boolean(view.genre || view.category || view.region);
  return (
    <div className="mt-6 rounded-lg border border-slate-800 bg-slate-900 p-6 text-center">
      <p className="text-lg font-semibold text-white">{t.catalog.empty.title}</p>
      <p className="mt-2 text-slate-300">{view.q ? format(t.catalog.empty.search, { query: view.q }) : t.catalog.empty.filters}</p>
      <div className="mt-4 flex flex-wrap justify-center gap-3">
        {view.q && filtered && link({ q: undefined }, format(t.catalog.empty.clearSearch, { query: view.q }), "secondary")}
        {link({ q: undefined, genre: undefined, category: undefined, region: undefined }, t.catalog.empty.reset, "primary")}
      </div>
    </div>
  );
}

function CatalogError({ onRetry }: { onRetry: () => void }) {
  const { t } = useI18n();
  return (
    <div role="alert" className="mt-6 rounded-lg border border-red-900 bg-red-950/40 p-6 text-center">
      <p className="text-lg font-semibold text-white">{t.catalog.error.title}</p>
      <p className="mt-2 text-slate-300">{t.catalog.error.body}</p>
      <button type="button" onClick={onRetry} className={buttonClass("primary", "mt-4")}>
        {t.common.retry}
      </button>
    </div>
  );
}

/** Keeps the region choice for a year (the catalog page applies it to a URL without one); "any" forgets it. */
function rememberRegion(region: string | undefined): void {
  document.cookie = region
    ? `${GIFT_REGION_COOKIE}=${region}; path=/; max-age=31536000; samesite=lax`
    : `${GIFT_REGION_COOKIE}=; path=/; max-age=0; samesite=lax`;
}

/** `flag`, but only once it has stayed true for `ms`; false again at once. */
function useDelayedFlag(flag: boolean, ms: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!flag) return;
    const timer = setTimeout(() => setElapsed(true), ms);
    return () => {
      clearTimeout(timer);
      setElapsed(false);
    };
  }, [flag, ms]);
  return flag && elapsed;
}
