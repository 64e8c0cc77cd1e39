import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_SCHEDULE, formatDelay, parseRetrySchedule } from "./schedule";

describe("parseRetrySchedule", () => {
  it("reads the default schedule as the issue gives it", () => {
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000]);
  });

  it.each([
    ["100ms,200ms,300ms", [100, 200, 300]],
    ["1d", [86_400_000]],
    [" 5s , 1m ", [5_000, 60_000]],
    ["0s", [0]],
  ])("%j -> %j", (text, expected) => {
    expect(parseRetrySchedule(text)).toEqual(expected);
  });

  it.each(["", "5", "5x", "5s,", ",5s", "-5s", "1.5s", "5 s s", "5sec"])("refuses %j", (text) => {
    expect(parseRetrySchedule(text)).toBeNull();
  });
});

describe("formatDelay", () => {
  it.each([
    [5_000, "5 s"],
    [300_000, "5 min"],
    [7_200_000, "2 h"],
    [86_400_000, "24 h"],
    [250, "250 ms"],
  ])("%d -> %s", (ms, text) => {
    expect(formatDelay(ms)).toBe(text);
  });
});
