import { useRef } from "react";

/**
 * One Idempotency-Key per distinct request body: pressing the button again after a lost answer
 * repeats the same key (the server can then answer with the intent it already made instead of a
 * second one), while a changed form is a new purchase with a new key.
 */
export function useIdempotencyKey(): (body: unknown) => string {
  const last = useRef<{ body: string; key: string } | null>(null);
  return (body) => {
    const json = JSON.stringify(body);
    if (last.current?.body !== json) last.current = { body: json, key: randomKey() };
    return last.current.key;
  };
}

/** crypto.randomUUID exists only in secure contexts; a store opened over plain http on a LAN address has none. */
function randomKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
