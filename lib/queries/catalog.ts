import { useEffect, useState, useSyncExternalStore } from "react";
import type { CatalogQuery, CatalogResponse } from "@/lib/schemas/catalog";
import { apiFetch } from "./api-client";
import { catalogApiPath } from "./catalog-url";

// The catalog's pages in the browser, without TanStack Query: the catalog is the store's landing page
// and its first-load script has a budget (issue 15) that the query library alone (~12 KiB compressed)
// would break. The few things the catalog needs from it are here: a tab-wide cache keyed by the API
// path (fresh for 30 s, as the other pages' query client), the previous page kept on screen while the
// next one loads, a stale request aborted, and a 5xx or network failure retried twice (1 s, then 2 s).

const STALE_MS = 30_000;
const RETRIES = 2;
/** Pages kept for Back and Forward; the oldest goes first. */
const CACHE_SIZE = 50;

interface Entry {
  data: CatalogResponse | null;
  updatedAt: number;
  error: unknown;
  fetching: boolean;
}

const cache = new Map<string, Entry>();
const listeners = new Set<() => void>();

function write(key: string, patch: Partial<Entry>): void {
  const entry = { data: null, updatedAt: 0, error: null, fetching: false, ...cache.get(key), ...patch };
  cache.delete(key);
  cache.set(key, entry);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A network failure or a 5xx is worth another try; a refusal (4xx) is not. */
function retryable(error: unknown): boolean {
  return !(error instanceof Error && "status" in error && Number(error.status) < 500);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

async function load(key: `/api/v1/${string}`, signal: AbortSignal): Promise<void> {
  write(key, { fetching: true, error: null });
  for (let failures = 0; ; failures++) {
    try {
      const data = await apiFetch<CatalogResponse>(key, { signal });
      return write(key, { data, updatedAt: Date.now(), error: null, fetching: false });
    } catch (error) {
      // A newer view made this one stale; whoever asks for it again starts a load of its own.
      if (signal.aborted) return;
      if (failures >= RETRIES || !retryable(error)) return write(key, { fetching: false, error });
      await pause(1000 * 2 ** failures, signal);
      if (signal.aborted) return;
    }
  }
}

export interface CatalogPageResult {
  /** This query's page, or while it loads the last page shown (`isPlaceholderData`). */
  data: CatalogResponse | undefined;
  isPlaceholderData: boolean;
  /** Nothing to show yet. */
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => void;
}

/**
 * One catalog page for `query`. `initial` is the page the server rendered: shown at once and not
 * fetched again while fresh.
 */
export function useCatalogPage(query: CatalogQuery, initial: { query: CatalogQuery; data: CatalogResponse }): CatalogPageResult {
  const key = catalogApiPath(query);
  const initialKey = catalogApiPath(initial.query);
  const [attempt, setAttempt] = useState(0);
  // The server's render and the first one in the browser read the server's page (the shared cache is
  // the browser's alone: on the server it would mix visitors).
  const cached = useSyncExternalStore(
    subscribe,
    () => cache.get(key),
    () => undefined,
  );
  const entry: Entry | undefined =
    cached ?? (key === initialKey ? { data: initial.data, updatedAt: 0, error: null, fetching: false } : undefined);

  // `attempt` is the retry button's: a page that failed is loaded again.
  useEffect(() => {
    const current = cache.get(key);
    if (!current && key === initialKey) return write(key, { data: initial.data, updatedAt: Date.now() });
    if (current?.data && !current.error && Date.now() - current.updatedAt < STALE_MS) return;
    const controller = new AbortController();
    let settled = false;
    void load(key, controller.signal).finally(() => (settled = true));
    // Only a request still in flight is cancelled; one that has answered is left alone.
    return () => {
      if (!settled) controller.abort();
    };
  }, [key, initialKey, initial.data, attempt]);

  // The page last shown stays while the next one loads.
  const [shown, setShown] = useState(entry?.data ?? undefined);
  if (entry?.data && entry.data !== shown) setShown(entry.data);

  const data = entry?.data ?? shown;
  const isError = Boolean(entry?.error) && !entry?.fetching;
  return {
    data: isError ? undefined : data,
    isPlaceholderData: !isError && !entry?.data && data !== undefined,
    isPending: !isError && data === undefined,
    isError,
    isFetching: entry?.fetching ?? false,
    refetch: () => setAttempt((n) => n + 1),
  };
}
