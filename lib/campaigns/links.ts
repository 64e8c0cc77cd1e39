import type { LinkBuilderInput } from "@/lib/schemas/campaigns";

// The link builder's rules: a campaign link always leads to one of the store's own pages.

/**
 * The path (with its query and fragment) that `input` names on the store, or null when it leads
 * anywhere else: a path starting with one '/', or an absolute URL on one of `origins`.
 */
export function storePathOf(input: string, origins: readonly string[]): string | null {
  const text = input.trim();
  if (!text || /[\u0000-\u001f\\]/.test(text)) return null;
  let url: URL;
  try {
    if (text.startsWith("/")) {
      // "//evil.example" and "/\evil" are other hosts to a browser.
      if (text.startsWith("//")) return null;
      url = new URL(text, "http://store.invalid");
    } else {
      url = new URL(text);
      if (!origins.some((o) => sameOrigin(o, url))) return null;
    }
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

function sameOrigin(origin: string, url: URL): boolean {
  try {
    return new URL(origin).origin === url.origin;
  } catch {
    return false;
  }
}

const UTM_ORDER = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"] as const;

/**
 * The campaign link: `path` on `origin` with the UTM parameters (any already in the path are
 * replaced, the page's own parameters and fragment kept).
 */
export function campaignUrl(origin: string, path: string, utm: Pick<LinkBuilderInput, (typeof UTM_ORDER)[number]>): string {
  const url = new URL(path, origin);
  for (const key of UTM_ORDER) url.searchParams.delete(key);
  for (const key of UTM_ORDER) {
    const value = utm[key];
    if (value) url.searchParams.set(key, value);
  }
  return url.href;
}
