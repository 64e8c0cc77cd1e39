// Cyrillic to Latin, the way the database's search_latin() spells it (drizzle/0013): names are compared
// by trigrams in Latin, so "элден ринг" is close to "Elden Ring" and "tikhaya gavan" to "Тихая гавань",
// and a server whose locale classifies only ASCII letters still sees every letter of a Russian name.

const CYR_TO_LAT: Readonly<Record<string, string>> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
};

/** Lower-cased, with every Cyrillic letter spelt in Latin; other characters are kept. */
export function toLatin(text: string): string {
  return [...text.toLowerCase()].map((ch) => CYR_TO_LAT[ch] ?? ch).join("");
}
