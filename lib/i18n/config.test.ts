import { describe, expect, it } from "vitest";
import { negotiateLocale } from "./config";
import { format, plural } from "./format";

describe("negotiateLocale", () => {
  it.each([
    [null, null, "ru"],
    ["en-US,en;q=0.9", null, "en"],
    ["de-DE,de;q=0.9,en;q=0.8,ru;q=0.7", null, "en"],
    ["ru;q=0.5,en;q=0.9", null, "en"],
    ["en;q=0", null, "ru"],
    ["fr", null, "ru"],
    ["en-US", "ru", "ru"],
    ["ru", "en", "en"],
    ["en", "xx", "en"],
    ["garbage;;;q=abc", null, "ru"],
  ])("Accept-Language %j with cookie %j is %s", (header, cookie, expected) => {
    expect(negotiateLocale(header, cookie)).toBe(expected);
  });
});

describe("plural and format", () => {
  const games = { one: "{count} игра", few: "{count} игры", many: "{count} игр", other: "{count} игры" };
  it.each([
    [1, "1 игра"],
    [3, "3 игры"],
    [5, "5 игр"],
    [21, "21 игра"],
    [11, "11 игр"],
    [12000, "12 000 игр"],
  ])("Russian %i", (n, expected) => {
    expect(plural("ru", n, games).replace(/\s/g, " ")).toBe(expected);
  });
  it("English", () => {
    expect(plural("en", 1, { one: "{count} game", other: "{count} games" })).toBe("1 game");
    expect(plural("en", 12000, { one: "{count} game", other: "{count} games" })).toBe("12,000 games");
  });
  it("format leaves unknown placeholders", () => {
    expect(format("{a} and {b}", { a: 1 })).toBe("1 and {b}");
  });
});
