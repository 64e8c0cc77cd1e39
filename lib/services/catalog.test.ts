import { describe, expect, it } from "vitest";
import { searchTerms } from "./catalog";

describe("searchTerms", () => {
  it.each([
    ["Portal 2", ["portal", "2"]],
    ["  Тихая   ГАВАНЬ ", ["тихая", "гавань"]],
    ["Cyberpunk:2077!", ["cyberpunk", "2077"]],
    ["a & b | !c:*", ["a", "b", "c"]],
    ["'); DROP TABLE games; --", ["drop", "table", "games"]],
    ["!!! ... ---", []],
    ["one two three four five six seven eight nine ten", ["one", "two", "three", "four", "five", "six", "seven", "eight"]],
  ])("%j -> %j", (text, terms) => {
    expect(searchTerms(text)).toEqual(terms);
  });

  it("cuts a very long word to 64 characters", () => {
    expect(searchTerms("x".repeat(100))).toEqual(["x".repeat(64)]);
  });
});
