import { z } from "zod";
import "./zod-config";

// What the back office's numbers and dates may be: what their database columns hold, so a value
// past it is a refusal naming the field (or a URL filter dropped) and never a query the database
// fails. One home for the bounds; the admin schemas and pages read them from here.

/** The largest value of PostgreSQL's `integer` columns: serial ids, app ids, stock, counts. */
export const PG_INT_MAX = 2_147_483_647;

/** The id of a row whose key is an `integer` column (a promo code, a gear item, a game's app id). */
export const intIdSchema = (field: string) => {
  const error = `${field} must be a whole number from 1 to ${PG_INT_MAX}`;
  return z.int({ error }).min(1, { error }).max(PG_INT_MAX, { error });
};

/**
 * The back office's dates and times: this window, far inside what `date` and `timestamptz` hold (a
 * JavaScript date reaches years PostgreSQL refuses, and year 0 does not exist there) and wide
 * enough for any promotion or report the store will have.
 */
export const ADMIN_DATE_MIN = "2000-01-01";
export const ADMIN_DATE_MAX = "2099-12-31";
const FIRST_INSTANT = Date.parse(`${ADMIN_DATE_MIN}T00:00:00.000Z`);
const LAST_INSTANT = Date.parse(`${ADMIN_DATE_MAX}T23:59:59.999Z`);

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day 'YYYY-MM-DD' that exists (not 2026-02-30), within the window. */
export const adminDaySchema = z
  .string()
  .refine((v) => DAY.test(v) && v >= ADMIN_DATE_MIN && v <= ADMIN_DATE_MAX && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
    error: `must be a date YYYY-MM-DD from ${ADMIN_DATE_MIN} to ${ADMIN_DATE_MAX}`,
  });

/** Whether a date and time is within the window. */
export function isAdminInstant(date: Date): boolean {
  const time = date.getTime();
  return time >= FIRST_INSTANT && time <= LAST_INSTANT;
}

/** The message of a date and time outside the window (or no date at all). */
export const adminInstantMessage = (field: string) => `${field} must be a date and time from ${ADMIN_DATE_MIN} to ${ADMIN_DATE_MAX}`;

/** The largest page any back-office list opens: past its rows, each shows its last page or none. */
export const ADMIN_PAGE_MAX = 10_000;

/** A list's page from its URL: digits, at most `max`; absent or anything else is the first page. */
export function pageNumber(value: string | undefined, max = ADMIN_PAGE_MAX): number {
  if (!value || !/^\d+$/.test(value)) return 1;
  return Math.max(1, Math.min(max, Number(value)));
}
