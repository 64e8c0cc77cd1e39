"use client";

import { isServer, QueryClient, QueryClientProvider } from "@tanstack/react-query";

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (count, error) => count < 2 && !(error instanceof Error && "status" in error && Number(error.status) < 500),
      },
    },
  });
}

let browserClient: QueryClient | undefined;

/**
 * TanStack Query for the pages whose forms use it (game, gear, order). It is not in the root
 * layout: the catalog, the landing page, fetches without it and keeps its first load small. One
 * client per browser tab, so moving between those pages keeps the cache; a new one per server
 * render, so visitors never share one.
 */
export function QueryProvider({ children }: { children: React.ReactNode }) {
  const client = isServer ? makeQueryClient() : (browserClient ??= makeQueryClient());
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
