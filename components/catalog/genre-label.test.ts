import { describe, expect, it } from "vitest";
import { messages } from "@/lib/i18n/messages";
import { genreLabel } from "./genre-label";

describe("genreLabel", () => {
  it.each([
    ["RPG", "ru", "Ролевые"],
    ["rpg", "en", "RPG"],
    ["Open World", "ru", "Открытый мир"],
    ["free to play", "en", "Free to Play"],
    ["Visual Novel", "ru", "Visual Novel"],
    ["visual novel", "en", "Visual novel"],
  ] as const)("%s in %s is %s", (genre, locale, label) => {
    expect(genreLabel(genre, messages[locale].catalog.genres)).toBe(label);
  });
});
