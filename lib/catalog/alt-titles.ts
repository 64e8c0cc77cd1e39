// Other names a game is searched by. Pure, so the demo generator, the importer and tests share it.

/**
 * Names shoppers use for well-known store apps that neither the store's title nor a transliteration
 * gives: the Russian spelling of an English name, and community abbreviations.
 */
export const KNOWN_ALT_TITLES: Readonly<Record<number, readonly string[]>> = {
  730: ["CS2", "CS", "CS:GO", "КС2", "КС", "Контр-Страйк 2", "Контра"],
  570: ["Дота 2", "Дота"],
  620: ["Портал 2"],
  1091500: ["Киберпанк 2077", "CP2077"],
  1245620: ["Элден Ринг"],
  271590: ["GTA V", "GTA 5", "ГТА 5"],
  292030: ["Ведьмак 3: Дикая Охота", "Witcher 3"],
  1086940: ["BG3", "Балдурс Гейт 3"],
  578080: ["PUBG", "ПУБГ", "ПАБГ"],
  252490: ["Раст"],
};

const MAX_ALT_TITLES = 16;
const MAX_ALT_TITLE_LENGTH = 200;

/**
 * The initials of a title of two or more words, with a trailing number kept whole:
 * "Counter-Strike 2" gives "CS2", "Grand Theft Auto V" gives "GTAV". Null when there is no such abbreviation.
 */
export function titleAbbreviation(title: string): string | null {
  const words = title.split(/[\s\-:]+/u).filter(Boolean);
  const last = words.at(-1) ?? "";
  const tail = /^(\d+|[IVX]+)$/u.test(last) ? last : "";
  const letters = (tail ? words.slice(0, -1) : words).filter((w) => /^\p{Lu}/u.test(w)).map((w) => w[0]);
  if (letters.length < 2 || letters.length > 5) return null;
  return letters.join("") + tail;
}

/**
 * A game's alternative titles: the given ones, the known ones for its app id and its abbreviation,
 * without repeats (case-insensitive) and without its own titles.
 */
export function gameAltTitles(game: { appId: number; title: string; titleRu: string | null; altTitles?: readonly string[] }): string[] {
  const seen = new Set([game.title, game.titleRu ?? ""].map((t) => t.toLowerCase()));
  const result: string[] = [];
  const candidates = [...(game.altTitles ?? []), ...(KNOWN_ALT_TITLES[game.appId] ?? []), titleAbbreviation(game.title) ?? ""];
  for (const raw of candidates) {
    const name = raw.trim().slice(0, MAX_ALT_TITLE_LENGTH);
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    result.push(name);
    if (result.length === MAX_ALT_TITLES) break;
  }
  return result;
}
