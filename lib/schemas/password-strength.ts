import type { Match, ZxcvbnFactory } from "@zxcvbn-ts/core";

// How hard a new password is to guess, by zxcvbn-ts (Dropbox's estimator, maintained as TypeScript):
// it finds the dictionary words (common passwords, English words and names, our Russian list),
// keyboard walks, runs, repeats, dates and the account's own e-mail in a password, with l33t
// swaps and capitals, and estimates the guesses an attacker who knows those patterns needs. Its
// dictionaries load on first use: the server's first check, and in the browser when a password
// form is first focused, never with the page. The browser leaves out the English word lists
// (600 of the 820 KiB it would fetch): fewer dictionaries only ever find more guesses, so the form
// refuses a subset of what the server does, early, and the server, with every list, has the last word.

/**
 * zxcvbn's score 4, at least 10^10 guesses ("strong protection from an offline slow-hash attack").
 * Score 3 (10^8) still lets through `abcABC123!` and `Summer2024!!`.
 */
const MIN_GUESSES_LOG10 = 10;
/**
 * Characters the estimator reads. Its l33t matching grows fast with length (`a1` × 100 took 0.7 s);
 * 64 keeps the worst case near 0.1 s, and a password weak in its first 64 characters is weak.
 */
const ESTIMATED_LENGTH = 64;

export type PasswordWeakness = "password_is_email" | "password_too_simple" | "password_too_common" | "password_too_weak";

let loading: Promise<ZxcvbnFactory> | null = null;

/** The estimator with its dictionaries, loaded once; a failed load (a lost chunk) is tried again next time. */
export function loadPasswordEstimator(): Promise<ZxcvbnFactory> {
  loading ??= (async () => {
    const [{ ZxcvbnFactory }, common, en, ru] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      typeof window === "undefined" ? import("@zxcvbn-ts/language-en") : null,
      import("./passwords-ru"),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en?.dictionary, "passwords-ru": [...ru.RUSSIAN_PASSWORD_WORDS] },
      graphs: { ...common.adjacencyGraphs, jcuken: ru.russianKeyboard(common.adjacencyGraphs.qwerty) },
      maxLength: ESTIMATED_LENGTH,
      l33tMaxSubstitutions: 20,
    });
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/**
 * Why a password is too easy to guess, or null. `userInputs` are the account's own words (its
 * e-mail and the name in it), which a guesser tries first. The reason follows the longest pattern
 * the estimator found: the account's words, a dictionary word or known password, or a run, repeat
 * or keyboard walk; anything else (dates, short words joined) is plainly "weak".
 */
export async function passwordWeakness(password: string, userInputs: readonly string[]): Promise<PasswordWeakness | null> {
  const estimator = await loadPasswordEstimator();
  const result = estimator.check(password, [...userInputs]);
  if (result.guessesLog10 >= MIN_GUESSES_LOG10) return null;
  const matches = result.sequence.filter((m) => m.pattern !== "bruteforce" && m.pattern !== "separator");
  if (matches.some((m) => m.pattern === "dictionary" && m.dictionaryName === "userInputs")) return "password_is_email";
  const longest = matches.reduce<Match | null>((best, m) => (best && best.token.length >= m.token.length ? best : m), null);
  if (longest?.pattern === "dictionary" || longest?.pattern === "wordSequence") return "password_too_common";
  if (longest?.pattern === "repeat" || longest?.pattern === "sequence" || longest?.pattern === "spatial") return "password_too_simple";
  return "password_too_weak";
}
