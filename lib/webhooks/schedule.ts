// Retry delays for callbacks, written the way operators think of them: `5s,5m,30m,2h,5h,10h,24h`.
// Pure (no env, no server-only): lib/env.ts validates the setting with it.

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The default schedule: a first try at once, then 7 retries over about 42 hours. */
export const DEFAULT_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,24h";

/** Milliseconds to wait before each retry, in order; null when the text is not a list of one or more delays. */
export function parseRetrySchedule(text: string): number[] | null {
  const delays: number[] = [];
  for (const part of text.split(",")) {
    const match = /^\s*(\d{1,9})\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) return null;
    delays.push(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
  }
  return delays;
}

/** `300000` -> `5 min`, for the docs and logs. */
export function formatDelay(ms: number): string {
  if (ms % UNIT_MS.h === 0) return `${ms / UNIT_MS.h} h`;
  if (ms % UNIT_MS.m === 0) return `${ms / UNIT_MS.m} min`;
  if (ms % UNIT_MS.s === 0) return `${ms / UNIT_MS.s} s`;
  return `${ms} ms`;
}
