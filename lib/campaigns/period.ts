import { MAX_REPORT_DAYS } from "@/lib/schemas/campaigns";

/** The report's default period: the last 30 days, today included. */
export const DEFAULT_REPORT_DAYS = 30;

const DAY_MS = 86_400_000;

/** `day` moved by `days` ('YYYY-MM-DD' in, 'YYYY-MM-DD' out; calendar arithmetic, no time zone). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/**
 * The period a report URL asks for: the days given, the last 30 days up to `today` by default;
 * dates the wrong way round are swapped, and a period longer than a year keeps its last year.
 */
export function resolvePeriod(query: { from?: string; to?: string }, today: string): { from: string; to: string } {
  let to = query.to ?? (query.from && query.from > today ? query.from : today);
  let from = query.from ?? addDays(to, -(DEFAULT_REPORT_DAYS - 1));
  if (from > to) [from, to] = [to, from];
  if (daysBetween(from, to) > MAX_REPORT_DAYS) from = addDays(to, -(MAX_REPORT_DAYS - 1));
  return { from, to };
}

/**
 * The report's filter from its URL: the period, and one campaign when the URL names any of its three
 * names (they go together; '' is a name too: a link without that parameter).
 */
export function reportFilterOf(
  query: { from?: string; to?: string; source?: string; medium?: string; campaign?: string },
  today: string,
): { from: string; to: string; source?: string; medium?: string; campaign?: string } {
  const period = resolvePeriod(query, today);
  const only = query.source !== undefined || query.medium !== undefined || query.campaign !== undefined;
  return only ? { ...period, source: query.source ?? "", medium: query.medium ?? "", campaign: query.campaign ?? "" } : period;
}
