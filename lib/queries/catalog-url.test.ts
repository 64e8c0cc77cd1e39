import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { catalogQuerySchema } from "@/lib/schemas/catalog";
import {
  CATALOG_PAGE_SIZE,
  type CatalogView,
  catalogApiPath,
  catalogHref,
  catalogSearch,
  pageCount,
  paginationItems,
  readCatalogView,
  toCatalogQuery,
} from "./catalog-url";

const view = (search: string) => readCatalogView(new URLSearchParams(search));

describe("readCatalogView", () => {
  it.each([
    ["", { page: 1 }],
    [
      "q=%D0%B3%D0%B0%D0%B2%D0%B0%D0%BD%D1%8C&genre=RPG&category=specials&page=3",
      { q: "гавань", genre: "rpg", category: "specials", page: 3 },
    ],
    ["q=++portal+2++", { q: "portal 2", page: 1 }],
    ["q=+++", { page: 1 }],
    ["genre=Open%20World", { genre: "open world", page: 1 }],
    ["utm_source=vk&utm_medium=post&fbclid=x", { page: 1 }],
  ])("%s", (search, expected) => {
    expect(view(search)).toEqual(expected);
  });

  it.each([
    ["page=0", { page: 1 }],
    ["page=-2", { page: 1 }],
    ["page=abc", { page: 1 }],
    ["page=2.5", { page: 1 }],
    ["page=1e3", { page: 1 }],
    ["page=1000002", { page: 1 }],
    ["category=bestsellers", { page: 1 }],
    [`q=${"x".repeat(201)}`, { page: 1 }],
    [`genre=${"g".repeat(65)}`, { page: 1 }],
  ])("an invalid %s falls back to the default", (search, expected) => {
    expect(view(search)).toEqual(expected);
  });

  it("keeps the valid parameters when another one is invalid", () => {
    expect(view("genre=rpg&page=zzz&category=top_sellers")).toEqual({ genre: "rpg", category: "top_sellers", page: 1 });
  });

  it("reads Next's searchParams object, taking the first of repeated values", () => {
    expect(readCatalogView({ q: ["portal", "dota"], page: "2", utm_source: "tg" })).toEqual({ q: "portal", page: 2 });
  });
});

/** The same reading done by the API's own schema, field by field: the rules readCatalogView must keep. */
function readWithApiSchema(search: string): CatalogView {
  const params = new URLSearchParams(search);
  const fields = catalogQuerySchema.shape;
  const valid = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> | undefined => {
    const result = schema.safeParse(value);
    return result.success ? result.data : undefined;
  };
  const raw = (key: string) => params.get(key) ?? undefined;
  const view: CatalogView = { page: 1 };
  const q = valid(fields.query, raw("q")?.trim());
  if (q) view.q = q;
  const genre = valid(fields.genre, raw("genre"));
  if (genre) view.genre = genre.toLowerCase();
  const category = valid(fields.steamCategory, raw("category"));
  if (category) view.category = category;
  const page = raw("page");
  const apiPage = page !== undefined && /^\d+$/.test(page) && Number(page) >= 1 ? valid(fields.page, String(Number(page) - 1)) : undefined;
  if (apiPage !== undefined) view.page = apiPage + 1;
  return view;
}

describe("readCatalogView follows the API's catalogQuerySchema", () => {
  it.each([
    "",
    "q=portal",
    "q=%20%20portal%202%20",
    "q=%20",
    "q=",
    `q=${"я".repeat(200)}`,
    `q=${"я".repeat(201)}`,
    `q=${"x".repeat(199)}%20%20`,
    "genre=RPG",
    "genre=%20Open%20World%20",
    "genre=",
    "genre=%20",
    `genre=${"g".repeat(64)}`,
    `genre=${"g".repeat(65)}`,
    "genre=%C4%B0STANBUL",
    "category=specials",
    "category=coming_soon",
    "category=top_sellers",
    "category=new_releases",
    "category=Specials",
    "category=",
    "category=featured",
    "page=1",
    "page=2",
    "page=01",
    "page=0",
    "page=-1",
    "page=+2",
    "page=2.0",
    "page=1e3",
    "page=%D9%A3",
    "page=1000001",
    "page=1000002",
    "page=99999999999",
    "page=",
    "q=a&genre=b&category=specials&page=3&utm_source=x",
  ])("%s", (search) => {
    expect(readCatalogView(new URLSearchParams(search))).toEqual(readWithApiSchema(search));
  });
});

describe("catalogSearch and catalogHref", () => {
  it("writes parameters in one order and leaves defaults out", () => {
    expect(catalogSearch({ page: 2, category: "specials", genre: "rpg", q: "elden ring" })).toBe(
      "?q=elden+ring&genre=rpg&category=specials&page=2",
    );
    expect(catalogHref({ page: 1 })).toBe("/");
    expect(catalogHref({})).toBe("/");
  });

  it("keeps UTM tags and other foreign parameters, replacing only its own", () => {
    const keep = new URLSearchParams("utm_source=vk&page=4&q=old&utm_campaign=spring");
    expect(catalogHref({ q: "new", page: 1 }, keep)).toBe("/?q=new&utm_source=vk&utm_campaign=spring");
  });

  it.each(["", "q=portal", "q=%D0%B3%D0%B0%D0%B2%D0%B0%D0%BD%D1%8C&genre=horror", "genre=open+world&category=coming_soon&page=7"])(
    "round-trips %s",
    (search) => {
      const once = view(search);
      expect(view(catalogSearch(once).slice(1))).toEqual(once);
    },
  );
});

describe("toCatalogQuery and catalogApiPath", () => {
  it("turns the 1-based page into the API's 0-based page with the store's page size", () => {
    expect(toCatalogQuery(view("q=dota&genre=strategy&category=top_sellers&page=3"), "en")).toEqual({
      page: 2,
      limit: CATALOG_PAGE_SIZE,
      genre: "strategy",
      steamCategory: "top_sellers",
      query: "dota",
      sort: "relevance",
      lang: "en",
    });
  });

  it("keeps a sort in the URL and names it to the API; relevance is the default, left out", () => {
    expect(readCatalogView(new URLSearchParams("sort=price")).sort).toBe("price");
    expect(readCatalogView(new URLSearchParams("sort=relevance")).sort).toBeUndefined();
    expect(readCatalogView(new URLSearchParams("sort=cheapest")).sort).toBeUndefined();
    expect(catalogHref({ genre: "rpg", sort: "newest", page: 1 })).toBe("/?genre=rpg&sort=newest");
    expect(catalogApiPath(toCatalogQuery(view("sort=discount"), "ru"))).toBe(
      `/api/v1/gifts/catalog?page=0&limit=${CATALOG_PAGE_SIZE}&lang=ru&sort=discount`,
    );
  });

  it("names only the filters that are set", () => {
    expect(catalogApiPath(toCatalogQuery(view(""), "ru"))).toBe(`/api/v1/gifts/catalog?page=0&limit=${CATALOG_PAGE_SIZE}&lang=ru`);
    expect(catalogApiPath(toCatalogQuery(view("q=тихая+гавань&genre=horror&category=specials&page=2"), "ru"))).toBe(
      `/api/v1/gifts/catalog?page=1&limit=${CATALOG_PAGE_SIZE}&lang=ru&genre=horror&steamCategory=specials&query=%D1%82%D0%B8%D1%85%D0%B0%D1%8F+%D0%B3%D0%B0%D0%B2%D0%B0%D0%BD%D1%8C`,
    );
  });
});

describe("pageCount", () => {
  it.each([
    [0, 1],
    [1, 1],
    [CATALOG_PAGE_SIZE, 1],
    [CATALOG_PAGE_SIZE + 1, 2],
    [3000, Math.ceil(3000 / CATALOG_PAGE_SIZE)],
  ])("%i games -> %i pages", (total, pages) => {
    expect(pageCount(total)).toBe(pages);
  });
});

describe("paginationItems", () => {
  it.each([
    [1, 1, [1]],
    [1, 2, [1, 2]],
    [1, 5, [1, 2, "gap", 5]],
    [3, 5, [1, 2, 3, 4, 5]],
    [5, 125, [1, "gap", 4, 5, 6, "gap", 125]],
    [125, 125, [1, "gap", 124, 125]],
    [4, 7, [1, 2, 3, 4, 5, 6, 7]],
  ])("page %i of %i", (current, last, expected) => {
    expect(paginationItems(current, last)).toEqual(expected);
  });
});
