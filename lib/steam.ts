// Store account identifiers. Pure functions: the shared schemas use them in the browser too.

/** SteamID64 of the individual account with account id 0; account id = SteamID64 - base. */
export const STEAMID64_BASE = 76561197960265728n;
const MAX_ACCOUNT_ID = 0xffff_ffffn;

/** The 32-bit account id of an individual-account SteamID64, or null when `value` is not one. */
export function accountIdFromSteamId64(value: string): number | null {
  if (!/^\d{17}$/.test(value)) return null;
  const accountId = BigInt(value) - STEAMID64_BASE;
  if (accountId < 1n || accountId > MAX_ACCOUNT_ID) return null;
  return Number(accountId);
}

export function steamId64FromAccountId(accountId: number): string {
  return (STEAMID64_BASE + BigInt(accountId)).toString();
}

export interface TradeLink {
  partner: number;
  token: string;
}

/** `https://steamcommunity.com/tradeoffer/new/?partner=<accountid32>&token=<8 chars>`, or null. */
export function parseTradeLink(value: string): TradeLink | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.hostname !== "steamcommunity.com" || url.username || url.password) return null;
  if (url.pathname !== "/tradeoffer/new/" && url.pathname !== "/tradeoffer/new") return null;
  // A second partner or token would be read by someone else than the first one we checked.
  if (repeatsTradeLinkParameter(url)) return null;
  const partner = url.searchParams.get("partner") ?? "";
  const token = url.searchParams.get("token") ?? "";
  if (!/^\d{1,10}$/.test(partner) || !/^[A-Za-z0-9_-]{8}$/.test(token)) return null;
  const id = Number(partner);
  if (id < 1 || id > Number(MAX_ACCOUNT_ID)) return null;
  return { partner: id, token };
}

/** Whether a trade link gives `partner` or `token` more than once. */
export function repeatsTradeLinkParameter(link: string | URL): boolean {
  let url: URL;
  try {
    url = typeof link === "string" ? new URL(link) : link;
  } catch {
    return false;
  }
  return url.searchParams.getAll("partner").length > 1 || url.searchParams.getAll("token").length > 1;
}

/**
 * A friend-invite link: `https://s.team/p/<code>/<token>`. The code is read in either case (its
 * alphabet is letters only, so `FHGC-RDQR` is `fhgc-rdqr`, as a phone's caps lock types it).
 */
export function isInviteUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === "https:" &&
    url.hostname === "s.team" &&
    !url.username &&
    !url.search &&
    /^\/p\/[A-Za-z0-9]{2,8}(?:-[A-Za-z0-9]{2,8}){0,3}\/[A-Za-z0-9]{6,16}\/?$/.test(url.pathname)
  );
}

/** An invite link as the store keeps it: the code in lower case, as the store itself writes it; the token's case is kept, since it matters. */
export function canonicalInviteUrl(value: string): string {
  if (!isInviteUrl(value)) return value;
  const url = new URL(value);
  const [, p, code = "", ...rest] = url.pathname.split("/");
  url.pathname = ["", p, code.toLowerCase(), ...rest].join("/");
  return url.toString();
}

/** The hex digits 0-f as a friend-invite code writes them. */
const INVITE_DIGITS = "bcdfghjkmnpqrtvw";

/**
 * The account id a friend-invite code names: the id in hex, each digit written as a letter of
 * `bcdfghjkmnpqrtvw`, a dash allowed in between (`fhgc-rdqr`). Null when it names no account.
 */
export function decodeInviteCode(code: string): number | null {
  const letters = code.toLowerCase().replace(/-/g, "");
  if (letters.length === 0 || letters.length > 8 || code.startsWith("-") || code.endsWith("-") || code.includes("--")) return null;
  let id = 0;
  for (const letter of letters) {
    const digit = INVITE_DIGITS.indexOf(letter);
    if (digit < 0) return null;
    id = id * 16 + digit;
  }
  return id >= 1 && id <= Number(MAX_ACCOUNT_ID) ? id : null;
}

export interface InviteRecipient {
  accountId: number;
  steamId64: string;
}

/** The account a friend-invite link (`https://s.team/p/<code>/<token>`) invites to, decoded offline; null when it does not decode. */
export function inviteRecipient(value: string): InviteRecipient | null {
  if (!isInviteUrl(value)) return null;
  const code = new URL(value).pathname.split("/")[2] ?? "";
  const accountId = decodeInviteCode(code);
  return accountId === null ? null : { accountId, steamId64: steamId64FromAccountId(accountId) };
}
