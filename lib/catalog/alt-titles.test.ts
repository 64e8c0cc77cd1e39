import { describe, expect, it } from "vitest";
import { gameAltTitles, titleAbbreviation } from "@/lib/catalog/alt-titles";
import { toLatin } from "@/lib/catalog/transliterate";

describe("titleAbbreviation", () => {
  it.each([
    ["Counter-Strike 2", "CS2"],
    ["Grand Theft Auto V", "GTAV"],
    ["Baldur's Gate 3", "BG3"],
    ["Hollow Frontier", "HF"],
    ["Dota 2", null],
    ["Cyberpunk 2077", null],
  ])("%s -> %s", (title, abbreviation) => expect(titleAbbreviation(title)).toBe(abbreviation));
});

describe("gameAltTitles", () => {
  it("adds the known names and the abbreviation, without repeats or the titles themselves", () => {
    expect(
      gameAltTitles({ appId: 730, title: "Counter-Strike 2", titleRu: "Counter-Strike 2", altTitles: ["cs2", "counter-strike 2"] }),
    ).toEqual(["cs2", "CS", "CS:GO", "КС2", "КС", "Контр-Страйк 2", "Контра"]);
    expect(gameAltTitles({ appId: 5, title: "Portal", titleRu: null })).toEqual([]);
  });
});

describe("toLatin", () => {
  it.each([
    ["элден ринг", "elden ring"],
    ["Тихая гавань", "tikhaya gavan"],
    ["Щука, ЁЖ и Чайка", "shchuka, ezh i chayka"],
    ["CS2", "cs2"],
  ])("%s -> %s", (from, to) => expect(toLatin(from)).toBe(to));
});
