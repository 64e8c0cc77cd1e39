import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "@/lib/csv";
import { campaignUrl, storePathOf } from "./links";
import { addDays, reportFilterOf, resolvePeriod } from "./period";

describe("the report's period", () => {
  it.each([
    [{}, { from: "2026-02-01", to: "2026-03-02" }],
    [{ from: "2026-02-20" }, { from: "2026-02-20", to: "2026-03-02" }],
    [{ to: "2026-01-31" }, { from: "2026-01-02", to: "2026-01-31" }],
    [
      { from: "2026-03-01", to: "2026-02-01" },
      { from: "2026-02-01", to: "2026-03-01" },
    ],
    [
      { from: "2024-01-01", to: "2026-03-02" },
      { from: "2025-03-02", to: "2026-03-02" },
    ],
  ])("%j -> %j (today 2 March 2026)", (query, expected) => {
    expect(resolvePeriod(query, "2026-03-02")).toEqual(expected);
  });

  it("names one campaign only when the URL does, '' included", () => {
    expect(reportFilterOf({}, "2026-03-02")).toEqual({ from: "2026-02-01", to: "2026-03-02" });
    expect(reportFilterOf({ source: "vk" }, "2026-03-02")).toMatchObject({ source: "vk", medium: "", campaign: "" });
  });

  it("adds days across months and leap years", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });
});

describe("CSV cells", () => {
  it.each([
    ["plain", "plain"],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@sum", "'@sum"],
    ["\tx", "'\tx"],
    ["a,b", '"a,b"'],
    ["line\nbreak", '"line\nbreak"'],
  ])("%j -> %s", (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it("writes numbers as they are, a negative one included, and ends lines with CRLF", () => {
    expect(csvRow(["vk", -5, 12, null])).toBe("vk,-5,12,\r\n");
  });
});

describe("campaign links", () => {
  const origins = ["https://store.test"];
  it.each([
    ["/games/620", "/games/620"],
    ["/gear?platform=570#top", "/gear?platform=570#top"],
    ["https://store.test/games/620?region=KZ", "/games/620?region=KZ"],
    ["https://evil.example/games/620", null],
    ["//evil.example", null],
    ["/\\evil.example", null],
    ["javascript:alert(1)", null],
    ["https://user:pass@store.test/", null],
    ["games/620", null],
  ])("%s -> %s", (input, path) => {
    expect(storePathOf(input, origins)).toBe(path);
  });

  it("replaces UTM parameters the page already had and keeps its own", () => {
    expect(
      campaignUrl("https://store.test", "/gear?utm_source=old&platform=570", { utm_source: "vk", utm_medium: "cpc", utm_term: "кс 2" }),
    ).toBe("https://store.test/gear?platform=570&utm_source=vk&utm_medium=cpc&utm_term=%D0%BA%D1%81+2");
  });
});
