// Rough transliteration between Cyrillic and Latin, good enough to find "Elden Ring" by "элден ринг"
// and "Тихая гавань" by "tikhaya gavan"; not a standard, and lossy by design.

const CYR_TO_LAT: Record<string, string> = {
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

// Longest first, so "sh" wins over "s" + "h".
const LAT_TO_CYR: [string, string][] = [
  ["shch", "щ"],
  ["sch", "щ"],
  ["zh", "ж"],
  ["kh", "х"],
  ["ts", "ц"],
  ["ch", "ч"],
  ["sh", "ш"],
  ["yu", "ю"],
  ["ya", "я"],
  ["yo", "ё"],
  ["ph", "ф"],
  ["th", "т"],
  ["ee", "и"],
  ["oo", "у"],
  ["ck", "к"],
  ["qu", "кв"],
  ["a", "а"],
  ["b", "б"],
  ["c", "к"],
  ["d", "д"],
  ["e", "е"],
  ["f", "ф"],
  ["g", "г"],
  ["h", "х"],
  ["i", "и"],
  ["j", "дж"],
  ["k", "к"],
  ["l", "л"],
  ["m", "м"],
  ["n", "н"],
  ["o", "о"],
  ["p", "п"],
  ["q", "к"],
  ["r", "р"],
  ["s", "с"],
  ["t", "т"],
  ["u", "у"],
  ["v", "в"],
  ["w", "в"],
  ["x", "кс"],
  ["y", "й"],
  ["z", "з"],
];

const CYRILLIC = /[а-яё]/u;
const LATIN = /[a-z]/u;

/** Lower-cased text in the other alphabet: Cyrillic letters become Latin, or Latin Cyrillic. */
export function transliterate(text: string): string {
  const lower = text.toLowerCase();
  if (CYRILLIC.test(lower)) return [...lower].map((ch) => CYR_TO_LAT[ch] ?? ch).join("");
  let out = "";
  for (let i = 0; i < lower.length;) {
    const pair = LATIN.test(lower[i]!) ? LAT_TO_CYR.find(([lat]) => lower.startsWith(lat, i)) : undefined;
    out += pair ? pair[1] : lower[i];
    i += pair ? pair[0].length : 1;
  }
  return out;
}
