"use client";

import { useCallback, useMemo, useState, useSyncExternalStore } from "react";

// A checkout form's values and the order it created outlive the page: Back from /pay/{id} (or a
// reload) finds them again. sessionStorage is the tab's own and ends with it, like the shopper's
// storefront token; where it is unavailable (storage disabled, quota) the state lives in memory.

const PREFIX = "giftkey:checkout:";
const memory = new Map<string, string>();
const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(PREFIX + key);
  } catch {
    return memory.get(key) ?? null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(PREFIX + key);
    else sessionStorage.setItem(PREFIX + key, value);
  } catch {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
  }
  listeners.forEach((notify) => notify());
}

function subscribe(notify: () => void): () => void {
  listeners.add(notify);
  return () => listeners.delete(notify);
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Where the checkout forms keep their values and the order they made. */
export const checkoutKeys = {
  gift: (appId: number) => ({ form: `gift:${appId}:form`, order: `gift:${appId}:order` }),
  gear: { form: "gear:form", order: "gear:order" },
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Restores saved form values field by field: only the fields `fresh` has, and only with the same type. */
export function restoreFields<T extends object>(saved: unknown, fresh: T): T | null {
  if (!isRecord(saved)) return null;
  const restored = { ...fresh } as Record<string, unknown>;
  for (const [key, value] of Object.entries(fresh)) if (typeof saved[key] === typeof value) restored[key] = saved[key];
  return restored as T;
}

/**
 * Restores a saved order while it can still be paid: one whose time ran out leads nowhere, so the
 * shopper gets the form (still filled in) instead.
 */
export function restoreOrder<T extends { response: { intentId: string; paymentUrl: string; expiresAt: string } } | null>(
  saved: unknown,
): T | null {
  if (!isRecord(saved) || !isRecord(saved.response)) return null;
  const { intentId, paymentUrl, expiresAt } = saved.response;
  if (typeof intentId !== "string" || typeof paymentUrl !== "string" || typeof expiresAt !== "string") return null;
  return Date.parse(expiresAt) > Date.now() ? (saved as T) : null;
}

/**
 * `useState` kept in sessionStorage under `key`. The server and the first (hydrating) render use
 * the initial value, so the markup matches; the saved one follows at once. Setting `null` removes it.
 * `restore` checks what was saved (an older version of the page may have written it); pass a
 * function that lives outside the component.
 */
export function useSessionState<T>(
  key: string,
  initial: T | (() => T),
  restore: (saved: unknown, fresh: T) => T | null,
): [T, (next: T | ((current: T) => T)) => void] {
  const [fresh] = useState(initial);
  const raw = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => null,
  );
  const value = useMemo(() => (raw === null ? null : restore(parse(raw), fresh)) ?? fresh, [raw, fresh, restore]);

  const set = useCallback(
    (next: T | ((current: T) => T)) => {
      const saved = read(key);
      const current = (saved === null ? null : restore(parse(saved), fresh)) ?? fresh;
      const updated = typeof next === "function" ? (next as (current: T) => T)(current) : next;
      write(key, updated === null ? null : JSON.stringify(updated));
    },
    [key, fresh, restore],
  );
  return [value, set];
}

/**
 * Drops the saved order `intentId` once it is settled (paid, declined, expired), so Back to its
 * form shows the form rather than a way to pay for it.
 */
export function forgetSettledOrder(key: string, intentId: string): void {
  const raw = read(key);
  const saved = raw === null ? null : parse(raw);
  if (isRecord(saved) && isRecord(saved.response) && saved.response.intentId === intentId) write(key, null);
}
