// Headers the HTTP server's own hooks (instrumentation.ts) set on a request for Next's side to read;
// each hook first removes any copy a client sent, so only the hook can set them.

/** Where Next renders the store's 400 page (app/bad-request/page.tsx); it serves only requests lib/http/path-guard.ts sends there. */
export const BAD_PATH_PAGE = "/bad-request";
/** Marks a request the path guard sent to BAD_PATH_PAGE. */
export const BAD_PATH_HEADER = "x-giftkey-bad-path";
/** Marks a prefetch (lib/http/prefetch-mark.ts), whose router headers Next hides from proxy.ts. */
export const PREFETCH_MARK = "x-giftkey-prefetch";
