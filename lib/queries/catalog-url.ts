import type { CatalogQuery, Language } from "@/lib/schemas/catalog";
import {
  CATALOG_GENRE_MAX_LENGTH,
  CATALOG_MAX_PAGE,
  CATALOG_QUERY_MAX_LENGTH,
  REGION_CODE_PATTERN,
  CATALOG_SORTS,
  STORE_CATEGORIES,
  type CatalogSort,
  type StoreCategory,
} from "@/lib/schemas/catalog-params";

// The catalog page's state lives in its URL, so a link reproduces the view and Back works:
// `/?q=гавань&genre=rpg&category=specials&page=2`. Names are short and the page counts from 1
// for people; the API's names and its 0-based page stay behind toCatalogQuery.
//
// This module runs in the browser on every catalog page, so it checks the parameters with plain
// code instead of the zod schemas (zod is a third of the page's script). Its rules are the API's:
// catalog-url.test.ts runs every case through catalogQuerySchema as well and expects the same answer.

/** 24 fills rows of 2, 3 and 4 cards. */
export const CATALOG_PAGE_SIZE = 24;

export interface CatalogView {
  /** Search text, trimmed; 1 to 200 characters. */
  q?: string;
  /** One genre, lower-cased (the filter is case-insensitive); 1 to 64 characters. */
  genre?: string;
  category?: StoreCategory;
  /** Only games that can be gifted to this region (upper-case); remembered in GIFT_REGION_COOKIE. */
  region?: string;
  /** The order; absent is `relevance`. */
  sort?: Exclude<CatalogSort, "relevance">;
  /** From 1 (the API's page + 1). */
  page: number;
}

/** The parameters this page owns; the rest of a query string (UTM tags) passes through untouched. */
const OWN_KEYS = ["q", "genre", "category", "region", "sort", "page"] as const;

/** Remembers the catalog's region choice; the catalog page applies it when a URL names no region. */
export const GIFT_REGION_COOKIE = "gk_gift_region";

export function readRegion(value: string | undefined): string | undefined {
  return value && REGION_CODE_PATTERN.test(value) ? value.toUpperCase() : undefined;
}

type SearchParamsInput = URLSearchParams | Record<string, string | string[] | undefined>;

/**
 * Reads the view from a query string (the browser's) or from Next's `searchParams` (the server's).
 * Each parameter falls back to its default on its own, so one bad value (`page=abc`) does not drop
 * the others, and unknown parameters (`utm_source`, ...) are ignored.
 */
export function readCatalogView(params: SearchParamsInput): CatalogView {
  const get = (key: string): string | undefined => {
    if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const view: CatalogView = { page: 1 };
  const q = get("q")?.trim();
  if (q && q.length <= CATALOG_QUERY_MAX_LENGTH) view.q = q;
  const genre = get("genre")?.trim();
  if (genre && genre.length <= CATALOG_GENRE_MAX_LENGTH) view.genre = genre.toLowerCase();
  const category = get("category");
  if (isStoreCategory(category)) view.category = category;
  const region = readRegion(get("region"));
  if (region) view.region = region;
  const sort = get("sort");
  if (sort !== "relevance" && (CATALOG_SORTS as readonly (string | undefined)[]).includes(sort)) view.sort = sort as CatalogView["sort"];
  const page = get("page");
  // The API's pages count from 0: page N here is valid when the API accepts N - 1.
  if (page && /^\d{1,10}$/.test(page) && Number(page) >= 1 && Number(page) - 1 <= CATALOG_MAX_PAGE) view.page = Number(page);
  return view;
}

function isStoreCategory(value: string | undefined): value is StoreCategory {
  return (STORE_CATEGORIES as readonly (string | undefined)[]).includes(value);
}

/**
 * The query string for `view`, in a fixed order so one view has one URL, with `keep`'s other
 * parameters after it. Defaults are left out: page 1 is `/`, not `/?page=1`.
 */
export function catalogSearch(view: Partial<CatalogView>, keep?: URLSearchParams): string {
  const out = new URLSearchParams();
  if (view.q) out.set("q", view.q);
  if (view.genre) out.set("genre", view.genre);
  if (view.category) out.set("category", view.category);
  if (view.region) out.set("region", view.region);
  if (view.sort) out.set("sort", view.sort);
  if (view.page && view.page > 1) out.set("page", String(view.page));
  keep?.forEach((value, key) => {
    if (!(OWN_KEYS as readonly string[]).includes(key)) out.append(key, value);
  });
  const search = out.toString();
  return search ? `?${search}` : "";
}

export function catalogHref(view: Partial<CatalogView>, keep?: URLSearchParams): string {
  return `/${catalogSearch(view, keep)}`;
}

/** The API query that fetches the view's page. */
export function toCatalogQuery(view: CatalogView, lang: Language): CatalogQuery {
  return {
    page: view.page - 1,
    limit: CATALOG_PAGE_SIZE,
    genre: view.genre,
    steamCategory: view.category,
    query: view.q,
    giftableTo: view.region,
    sort: view.sort ?? "relevance",
    lang,
  };
}

/** `/api/v1/gifts/catalog?...` for a query, with only the parameters that differ from the defaults. */
export function catalogApiPath(query: CatalogQuery): `/api/v1/${string}` {
  const params = new URLSearchParams({ page: String(query.page), limit: String(query.limit), lang: query.lang });
  if (query.genre) params.set("genre", query.genre);
  if (query.steamCategory) params.set("steamCategory", query.steamCategory);
  if (query.query) params.set("query", query.query);
  if (query.giftableTo) params.set("giftableTo", query.giftableTo);
  if (query.sort !== "relevance") params.set("sort", query.sort);
  return `/api/v1/gifts/catalog?${params}`;
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / CATALOG_PAGE_SIZE));
}

export type PageItem = number | "gap";

/**
 * Page links to show: the first and last, the current one with `around` neighbours each side, and a
 * gap marker where pages are skipped. A gap never hides a single page (1 … 3 is shown as 1 2 3).
 */
export function paginationItems(current: number, last: number, around = 1): PageItem[] {
  const pages = new Set<number>([1, last]);
  for (let p = current - around; p <= current + around; p++) if (p >= 1 && p <= last) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const items: PageItem[] = [];
  let previous = 0;
  for (const page of sorted) {
    if (page - previous === 2) items.push(previous + 1);
    else if (page - previous > 2) items.push("gap");
    items.push(page);
    previous = page;
  }
  return items;
}
