// Whether a request comes from the store's own pages, judged by its Origin header.

/** The host of an `Origin` header, or null when it is absent, `null` (an opaque origin) or not a URL. */
export function originHost(origin: string | null): string | null {
  if (origin === null) return null;
  try {
    return new URL(origin).host || null;
  } catch {
    return null;
  }
}

/**
 * A server action Next would refuse for its Origin, as Next judges it: the Origin's host must equal
 * the first X-Forwarded-Host, else Host (next.config allows no other origins). Next lets an action
 * without an Origin run (no browser sends one cross-site without it), and so does this.
 */
export function isForeignServerAction(headers: Pick<Headers, "get" | "has">, method: string): boolean {
  if (method !== "POST" || !headers.has("next-action")) return false;
  const origin = headers.get("origin");
  if (origin === null) return false;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  return originHost(origin) === null || originHost(origin) !== host;
}
