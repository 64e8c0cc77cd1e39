"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and while React takes the page over; true once the page's handlers are
 * attached. A button that only works with script is disabled until then: pressed earlier it would
 * do nothing and say nothing (seen under load, where hydration takes seconds), and disabled it shows
 * it is not ready, while automated browsers wait for it to be enabled.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
