import { queryOptions } from "@tanstack/react-query";
import type { CatalogQuery, CatalogResponse } from "@/lib/schemas/catalog";
import { apiFetch } from "./api-client";
import { catalogApiPath } from "./catalog-url";

export const catalogKeys = {
  all: ["catalog"] as const,
  lists: () => [...catalogKeys.all, "list"] as const,
  /** The server render seeds exactly this key, so the browser does not fetch the first page again. */
  list: (query: CatalogQuery) => [...catalogKeys.lists(), query] as const,
};

/** One catalog page; a newer query aborts this one's request through `signal`. */
export const catalogListQuery = (query: CatalogQuery) =>
  queryOptions({
    queryKey: catalogKeys.list(query),
    queryFn: ({ signal }) => apiFetch<CatalogResponse>(catalogApiPath(query), { signal }),
  });
