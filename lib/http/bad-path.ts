/** Where Next renders the store's 400 page (app/bad-request/page.tsx); it serves only requests lib/http/path-guard.ts sends there. */
export const BAD_PATH_PAGE = "/bad-request";
/** Marks a request the path guard sent to BAD_PATH_PAGE; a client's own copy is removed from every request. */
export const BAD_PATH_HEADER = "x-giftkey-bad-path";
