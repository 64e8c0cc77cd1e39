import { describe, expect, it } from "vitest";
import { formatStoreTime } from "./format";

// One format for the checkout's summary, the payment page and the mail: Moscow time with its zone,
// and the date unless the moment is on the same Moscow day as the page is shown.

const deadline = new Date("2026-11-25T22:54:00Z"); // 26 November, 01:54 in Moscow
const zone = /(MSK|GMT\+3)$/;

describe("formatStoreTime", () => {
  it("leaves the date out on the same day in Moscow, keeping the zone", () => {
    const now = new Date("2026-11-25T21:10:00Z"); // 26 November, 00:10 in Moscow (still the 25th in UTC)
    for (const locale of ["ru", "en"] as const) {
      const text = formatStoreTime(deadline, locale, now);
      expect(text).toMatch(/^01:54 /);
      expect(text).toMatch(zone);
    }
  });

  it("names the date when the moment is on another day there", () => {
    const now = new Date("2026-11-25T20:50:00Z"); // 25 November, 23:50 in Moscow
    expect(formatStoreTime(deadline, "ru", now)).toMatch(/^26 ноября.*01:54 (MSK|GMT\+3)$/);
    expect(formatStoreTime(deadline, "en", now)).toMatch(/^26 November.*01:54 (MSK|GMT\+3)$/);
  });

  it("always names the date without a moment to compare with (mail is read later)", () => {
    expect(formatStoreTime(deadline, "ru")).toMatch(/^26 ноября.*01:54 (MSK|GMT\+3)$/);
  });
});
