import { z } from "zod";
import { catalogQuerySchema, type CatalogQuery, type Language } from "@/lib/schemas/catalog";
import { queryIntSchema } from "@/lib/schemas/common";

// The catalog page's state lives in its URL, so a link reproduces the view and Back works:
// `/?q=гавань&genre=rpg&category=specials&page=2`. Names are short and the page counts from 1
// for people; the API's names and its 0-based page stay behind toCatalogQuery.

/** 24 fills rows of 2, 3 and 4 cards. */
export const CATALOG_PAGE_SIZE = 24;

const fields = catalogQuerySchema.shape;

/**
 * Each parameter falls back to its default on its own, so one bad value (`page=abc`) does not drop
 * the others, and unknown parameters (`utm_source`, ...) are ignored.
 */
export const catalogViewSchema = z.object({
  q: z.preprocess((v) => (typeof v === "string" ? v.trim() : v), fields.query).catch(undefined),
  genre: fields.genre.transform((g) => g?.toLowerCase()).catch(undefined),
  category: fields.steamCategory.catch(undefined),
  page: queryIntSchema("page", 1, 1_000_000, 1).catch(1),
});

export type CatalogView = z.infer<typeof catalogViewSchema>;

/** The parameters this page owns; the rest of a query string (UTM tags) passes through untouched. */
const OWN_KEYS = ["q", "genre", "category", "page"] as const;

type SearchParamsInput = URLSearchParams | Record<string, string | string[] | undefined>;

/** Reads the view from a query string (the browser's) or from Next's `searchParams` (the server's). */
export function readCatalogView(params: SearchParamsInput): CatalogView {
  const get = (key: string): string | undefined => {
    if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
  return catalogViewSchema.parse(Object.fromEntries(OWN_KEYS.map((key) => [key, get(key)])));
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
    lang,
  };
}

/** `/api/v1/gifts/catalog?...` for a query, with only the parameters that differ from the defaults. */
export function catalogApiPath(query: CatalogQuery): `/api/v1/${string}` {
  const params = new URLSearchParams({ page: String(query.page), limit: String(query.limit), lang: query.lang });
  if (query.genre) params.set("genre", query.genre);
  if (query.steamCategory) params.set("steamCategory", query.steamCategory);
  if (query.query) params.set("query", query.query);
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
