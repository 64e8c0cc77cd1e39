// What the strength estimator (./password-strength.ts) knows of Russian: zxcvbn-ts publishes no
// Russian language package, so its dictionaries are English and its keyboards Latin. This adds the
// ЙЦУКЕН keyboard, made from the estimator's own QWERTY graph key by key, and a short list of the
// words Russian speakers build passwords from, each also as typed with the Latin layout left on
// (`пароль` → `gfhjkm`) and in the usual transliteration. Commonest first: the estimator ranks by position.

/** QWERTY keys and the ЙЦУКЕН letters on the same keys, unshifted then shifted. */
const LATIN = "`qwertyuiop[]asdfghjkl;'zxcvbnm,./~QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>?@#$^&";
const CYRILLIC = 'ёйцукенгшщзхъфывапролджэячсмитьбю.ЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ,"№;:?';

const toCyrillic = new Map([...LATIN].map((c, i) => [c, CYRILLIC[i]!]));
const toLatin = new Map([...CYRILLIC].map((c, i) => [c, LATIN[i]!]));
const swap = (text: string, map: Map<string, string>) => [...text].map((c) => map.get(c) ?? c).join("");

/** The ЙЦУКЕН layout as an adjacency graph, from the QWERTY one (same keys, other letters). */
export function russianKeyboard(qwerty: Record<string, (string | null)[]>): Record<string, (string | null)[]> {
  return Object.fromEntries(
    Object.entries(qwerty).map(([key, neighbours]) => [
      swap(key, toCyrillic),
      neighbours.map((n) => (n === null ? null : swap(n, toCyrillic))),
    ]),
  );
}

const WORDS = `пароль привет любовь люблю солнышко солнце котенок котёнок котик кошка зайка зайчик рыбка малыш малышка
ангел ангелочек красотка принцесса королева москва россия родина спартак зенит цска динамо локомотив наташа наталья
марина светлана света ирина ольга елена лена татьяна таня анна мария маша екатерина катя анастасия настя юлия юля дарья
даша ксения ксюша алина кристина виктория вика александр саша сергей андрей дмитрий дима алексей лёша максим иван ваня
михаил миша никита артём артем денис павел паша владимир вова евгений женя игорь роман николай олег антон егор кирилл
илья виталий мама папа мамочка семья дружба друг счастье свобода победа удача весна лето осень зима январь февраль март
апрель июнь июль август сентябрь октябрь ноябрь декабрь компьютер интернет игра танки сталкер доступ секрет админ
администратор логин система работа школа кисуля киса лапочка дракон медведь мишка собака тигр волк лиса цветок роза
ромашка шоколад конфета пушистик барсик мурзик пупсик хорошо спасибо навсегда вместе мечта жизнь бог господи
надежда вера людмила галина валентина ангелина`
  .split(/\s+/)
  .filter(Boolean);

const TRANSLITERATED = `parol privet lubov lyubov solnce solnyshko kotenok zaika zayka rybka malysh moskva rossiya
spartak zenit natasha svetlana sveta irina olga elena tanya masha katya nastya yulia dasha ksenia ksusha sasha sergey
andrey dmitry dima alexey lesha maxim vanya misha nikita artem pasha vladimir vova zhenya kirill mama papa schastie
svoboda pobeda udacha`
  .split(/\s+/)
  .filter(Boolean);

/** The words, then each as typed on the Latin layout, then the transliterations. */
export const RUSSIAN_PASSWORD_WORDS: readonly string[] = [...new Set([...WORDS, ...WORDS.map((w) => swap(w, toLatin)), ...TRANSLITERATED])];
