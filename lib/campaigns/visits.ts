import { attributionFromSearchParams } from "@/lib/attribution";
import { STORE_TIME_ZONE } from "@/lib/i18n/format";

// Campaign visits: a page load whose URL carries utm_source or utm_medium adds one to its campaign's
// count for the day (campaign_visits). Nothing about the visitor is kept, only the campaign's names
// and a number. Pure and dependency-light: lib/campaigns/count-visits.ts runs it on every request,
// and counts the visit once the page has answered 200.

export interface CampaignKey {
  /** 'YYYY-MM-DD' in the store's time zone. */
  day: string;
  /** '' when the URL did not name it. */
  source: string;
  medium: string;
  campaign: string;
}

export interface PageRequest {
  method: string;
  pathname: string;
  searchParams: URLSearchParams;
  headers: Pick<Headers, "get">;
}

// Link previews (Telegram, VK, Slack, WhatsApp...) and crawlers fetch a shared link before, or
// instead of, any person; scripts with a tool's default agent are no visitors either. Not
// "HeadlessChrome": real checks of the store (and its own browser tests) use it on purpose.
const BOT_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|whatsapp|vkshare|skypeuripreview|preview|embedly|curl\/|wget\/|python-|go-http-client|node-fetch|axios\//i;

/**
 * The row of a day that counts the visits of every campaign beyond the day's CAMPAIGNS_PER_DAY
 * together (lib/services/campaign-visits.ts). No visit has this key: a visit names a source or a
 * medium.
 */
export const OTHER_CAMPAIGNS = { source: "", medium: "", campaign: "" } as const;

/** Whether a campaign_visits row is the day's row of every campaign beyond the limit. */
export function isOtherCampaigns(key: { source: string; medium: string; campaign: string }): boolean {
  return key.source === "" && key.medium === "" && key.campaign === "";
}

/**
 * A prefetch rather than a visit: the router's (Next-Router-Prefetch, or an RSC payload), or the
 * browser's speculative one (Sec-Purpose, or the older Purpose). It gets the page as a visit would,
 * with every header, but it is no visit and lands no campaign.
 */
export function isPrefetch(headers: Pick<Headers, "get">): boolean {
  if (headers.get("next-router-prefetch") !== null) return true;
  return /prefetch|prerender/i.test(`${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""}`);
}

/**
 * The campaign a page request counts a visit for, or null. Counted: a GET of a document (a load or a
 * reload of a UTM link: each is a visit, as most analytics tools count landings). Not counted: a
 * router prefetch or a client navigation's RSC payload, a speculative prefetch, a frame, the back
 * office, a request with no user agent or a bot's.
 */
export function campaignVisitOf(request: PageRequest, now: Date): CampaignKey | null {
  // The common case, a plain page without campaign parameters, ends here, before any parsing.
  const params = request.searchParams;
  if (!params.has("utm_source") && !params.has("utm_medium")) return null;
  if (request.method !== "GET") return null;
  if (request.pathname === "/admin" || request.pathname.startsWith("/admin/")) return null;
  const header = (name: string) => request.headers.get(name);
  if (header("rsc") !== null || params.has("_rsc") || isPrefetch(request.headers)) return null;
  const dest = header("sec-fetch-dest");
  if (dest !== null && dest !== "document") return null;
  const agent = header("user-agent");
  if (!agent || BOT_AGENT.test(agent)) return null;

  const attribution = attributionFromSearchParams(params);
  if (!attribution) return null;
  return {
    day: storeDay(now),
    source: attribution.utm_source ?? "",
    medium: attribution.utm_medium ?? "",
    campaign: attribution.utm_campaign ?? "",
  };
}

const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: STORE_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });

/** The store's calendar day of `date`, 'YYYY-MM-DD'. */
export function storeDay(date: Date): string {
  return dayFormat.format(date);
}

/**
 * Visits counted in this server process and not yet written. A page's answer adds to it (a map
 * update, no I/O, so a page never waits on the database); lib/services/campaign-visits.ts writes it
 * out every few seconds in one statement. Kept on globalThis: the server's bundles each have their
 * own copy of this module but run in one process.
 */
export interface VisitBuffer {
  counts: Map<string, { key: CampaignKey; visits: number }>;
  /** Visits dropped because the buffer was full (the database unreachable for long, or a flood of made-up campaigns). */
  dropped: number;
}

/** Distinct campaigns per day a process holds before it drops new ones; a flood of random names cannot grow memory. */
export const VISIT_BUFFER_LIMIT = 5_000;

const holder = globalThis as unknown as { gkCampaignVisits?: VisitBuffer };

export function visitBuffer(): VisitBuffer {
  return (holder.gkCampaignVisits ??= { counts: new Map(), dropped: 0 });
}

export function bufferVisit(key: CampaignKey, visits = 1, buffer: VisitBuffer = visitBuffer()): void {
  const id = JSON.stringify([key.day, key.source, key.medium, key.campaign]);
  const entry = buffer.counts.get(id);
  if (entry) entry.visits += visits;
  else if (buffer.counts.size < VISIT_BUFFER_LIMIT) buffer.counts.set(id, { key, visits });
  else buffer.dropped += visits;
}

/** Everything buffered, and an empty buffer for what comes next. */
export function takeBufferedVisits(buffer: VisitBuffer = visitBuffer()): { key: CampaignKey; visits: number }[] {
  const taken = [...buffer.counts.values()];
  buffer.counts.clear();
  return taken;
}
