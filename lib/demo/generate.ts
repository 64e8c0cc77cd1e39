import { KNOWN_ALT_TITLES } from "@/lib/catalog/alt-titles";
import type { FeaturedList, GameInput, GearItemInput, PackageInput, PromoCodeInput, RegionPriceInput } from "@/lib/services/catalog-write";
import type { CurrencyRateInput } from "@/lib/services/giftability";

export interface DemoCatalogOptions {
  games: number;
  seed?: number;
}

export interface DemoCatalog {
  games: GameInput[];
  gearItems: GearItemInput[];
  promoCodes: PromoCodeInput[];
}

export const DEFAULT_DEMO_SEED = 2077;
export const DEFAULT_DEMO_GAMES = 3000;
export const FIRST_GENERATED_APP_ID = 2_000_000;

/** Dates are relative to a fixed day, not to today, so a seed always gives the same catalog. */
const REFERENCE_DAY = Date.UTC(2026, 10, 1);
const DAY_MS = 86_400_000;

export const GIFT_REGIONS = ["RU", "KZ", "BY", "AM", "GE", "UZ", "KG", "AZ", "MD", "UA", "TR", "US", "EU"] as const;

export const STORE_GENRES = [
  "Action",
  "Adventure",
  "RPG",
  "Strategy",
  "Simulation",
  "Sports",
  "Racing",
  "Indie",
  "Casual",
  "Puzzle",
  "Horror",
  "Platformer",
  "Fighting",
  "Shooter",
  "Survival",
  "Open World",
  "Massively Multiplayer",
  "Free to Play",
] as const;

/** What each gift region pays in: the store's CIS and Turkey prices are in US dollars. */
export const REGION_CURRENCIES: Record<(typeof GIFT_REGIONS)[number], string> = {
  RU: "RUB",
  KZ: "KZT",
  BY: "USD",
  AM: "USD",
  GE: "USD",
  UZ: "USD",
  KG: "USD",
  AZ: "USD",
  MD: "USD",
  UA: "UAH",
  TR: "USD",
  US: "USD",
  EU: "EUR",
};

/** Plausible rates on REFERENCE_DAY (and an older USD one, so "the latest applies" is exercised). */
export const DEMO_CURRENCY_RATES: readonly CurrencyRateInput[] = [
  { currency: "USD", asOf: "2026-10-01", rubMicrosPerUnit: 79_800_000 },
  { currency: "USD", asOf: "2026-11-01", rubMicrosPerUnit: 81_500_000 },
  { currency: "EUR", asOf: "2026-11-01", rubMicrosPerUnit: 94_200_000 },
  { currency: "KZT", asOf: "2026-11-01", rubMicrosPerUnit: 162_000 },
  { currency: "UAH", asOf: "2026-11-01", rubMicrosPerUnit: 1_960_000 },
];

const CURRENT_RATE = new Map(DEMO_CURRENCY_RATES.map((r) => [r.currency, r.rubMicrosPerUnit]));

type RegionMode = "fair" | "restricted" | "cheap";

/**
 * A package's price in each of the game's gift regions: mostly the store's price converted and
 * rounded as a local store would (x.99 dollars, whole tens of tenge); about 5 % of (game, region)
 * pairs restricted and 8 % far cheaper than the store (beyond GIFT_PRICE_GAP). Decided by the app id
 * and region alone, so it does not disturb the game's own random stream; `modes` pins the anchors.
 */
function regionPrices(
  appId: number,
  giftRegions: readonly string[],
  priceFinal: number | null,
  modes: Partial<Record<string, RegionMode>> = {},
): RegionPriceInput[] {
  return giftRegions.flatMap<RegionPriceInput>((region) => {
    const currency = REGION_CURRENCIES[region as (typeof GIFT_REGIONS)[number]] ?? "USD";
    const rng = mulberry32(streamSeed(0x7e610, appId * 16 + GIFT_REGIONS.indexOf(region as (typeof GIFT_REGIONS)[number])));
    const roll = rng();
    const mode: RegionMode = modes[region] ?? (region === "RU" ? "fair" : roll < 0.05 ? "restricted" : roll < 0.13 ? "cheap" : "fair");
    if (mode === "restricted") return [{ region, currency, amount: null, restricted: true }];
    if (priceFinal === null) return [];
    if (currency === "RUB") return [{ region, currency, amount: priceFinal, restricted: false }];
    const factor = mode === "cheap" ? 0.55 + rng() * 0.25 : 0.97 + rng() * 0.06;
    const exact = (priceFinal * factor * 1_000_000) / CURRENT_RATE.get(currency)!;
    const amount = currency === "KZT" ? Math.max(1000, Math.round(exact / 1000) * 1000) : Math.max(99, Math.round(exact / 100) * 100 - 1);
    return [{ region, currency, amount, restricted: false }];
  });
}

function withRegionPrices(game: GameInput, modes?: Partial<Record<string, RegionMode>>): GameInput {
  return {
    ...game,
    packages: game.packages.map((p) => ({ ...p, regionPrices: regionPrices(game.appId, game.giftRegions, p.priceFinal, modes) })),
  };
}

type Genre = (typeof STORE_GENRES)[number];
type Pair = readonly [ru: string, en: string];

interface GameSpec {
  appId: number;
  title: string;
  titleRu: string;
  ru: string;
  en: string;
  genres: Genre[];
  featured?: FeaturedList[];
  comingSoon?: boolean;
  releaseDate: string | null;
  giftRegions: string[];
  packages: PackageInput[];
  /** Pinned regional modes; other regions are "fair" for the anchors. */
  regionModes?: Partial<Record<string, RegionMode>>;
}

function anchor(spec: GameSpec, sortRank: number): GameInput {
  const fair = Object.fromEntries(spec.giftRegions.map((r) => [r, "fair" as const]));
  return withRegionPrices(anchorGame(spec, sortRank), { ...fair, ...spec.regionModes });
}

function anchorGame(spec: GameSpec, sortRank: number): GameInput {
  return {
    appId: spec.appId,
    title: spec.title,
    titleRu: spec.titleRu,
    altTitles: [...(KNOWN_ALT_TITLES[spec.appId] ?? [])],
    shortDescription: spec.ru,
    shortDescriptionEn: spec.en,
    headerImage: null,
    genres: spec.genres,
    featured: spec.featured ?? [],
    comingSoon: spec.comingSoon ?? false,
    releaseDate: spec.releaseDate,
    sortRank,
    giftRegions: spec.giftRegions,
    packages: spec.packages,
  };
}

function pkg(packageId: number, title: string, isMain: boolean, prices: [number, number, number] | null): PackageInput {
  const [priceInitial, priceFinal, discountPercent] = prices ?? [null, null, 0];
  return { packageId, title, isMain, priceInitial, priceFinal, discountPercent };
}

const ANCHOR_SPECS: GameSpec[] = [
  {
    appId: 1091500,
    title: "Cyberpunk 2077",
    titleRu: "Cyberpunk 2077",
    ru: "Ролевой экшен с открытым миром о наёмнике в Найт-Сити, мегаполисе, одержимом властью, гламуром и модификациями тела.",
    en: "An open-world action RPG about a mercenary in Night City, a megalopolis obsessed with power, glamour and body modification.",
    genres: ["RPG", "Action", "Open World"],
    featured: ["top_sellers"],
    releaseDate: "2020-12-10",
    giftRegions: ["RU", "KZ", "BY", "AM"],
    // Sold far below the store's price in Belarus and not at all in Armenia: the gift form's refusals.
    regionModes: { BY: "cheap", AM: "restricted" },
    packages: [
      pkg(10915001, "Cyberpunk 2077", true, [299900, 149950, 50]),
      pkg(10915002, "Cyberpunk 2077: Ultimate Edition", false, [449900, 449900, 0]),
    ],
  },
  {
    appId: 620,
    title: "Portal 2",
    titleRu: "Portal 2",
    ru: "Головоломка от первого лица о порталах, законах физики и лабораториях Aperture Science. Сюжетная кампания и кооператив для двоих.",
    en: "A first-person puzzle game about portals, physics and the Aperture Science labs. A story campaign and two-player co-op.",
    genres: ["Action", "Adventure", "Puzzle"],
    featured: ["top_sellers"],
    releaseDate: "2011-04-18",
    giftRegions: ["RU", "KZ", "BY", "UA", "AM", "GE", "UZ"],
    packages: [pkg(6201, "Portal 2", true, [39900, 39900, 0]), pkg(6202, "Portal 2 + Soundtrack", false, [59900, 59900, 0])],
  },
  {
    appId: 999990,
    title: "Hollow Frontier",
    titleRu: "Пограничье пустоты",
    ru: "Атмосферное приключение о последней экспедиции к краю известного мира. Ручная рисовка и оригинальный саундтрек.",
    en: "An atmospheric adventure about the last expedition to the edge of the known world. Hand-drawn art and an original soundtrack.",
    genres: ["Adventure", "Indie"],
    featured: ["new_releases"],
    comingSoon: true,
    releaseDate: null,
    giftRegions: ["RU"],
    packages: [pkg(9999901, "Hollow Frontier", true, null)],
  },
  {
    appId: 999991,
    title: "Silent Harbor",
    titleRu: "Тихая гавань",
    ru: "Психологический хоррор о рыбацком городке, из которого однажды ночью исчезли все жители.",
    en: "A psychological horror game about a fishing town whose people all vanished one night.",
    genres: ["Horror"],
    releaseDate: "2024-10-17",
    giftRegions: ["RU", "KZ"],
    packages: [pkg(9999911, "Silent Harbor", true, null)],
  },
  {
    appId: 730,
    title: "Counter-Strike 2",
    titleRu: "Counter-Strike 2",
    ru: "Командный тактический шутер: две стороны, десятки карт и соревновательный режим с рейтингом.",
    en: "A team-based tactical shooter: two sides, dozens of maps and ranked competitive play.",
    genres: ["Action", "Shooter", "Free to Play"],
    featured: ["top_sellers"],
    releaseDate: "2012-08-21",
    giftRegions: [],
    packages: [pkg(7301, "Counter-Strike 2", true, null)],
  },
  {
    appId: 570,
    title: "Dota 2",
    titleRu: "Dota 2",
    ru: "Командная стратегия в реальном времени: две команды по пять героев сражаются, чтобы разрушить вражеский трон.",
    en: "A real-time team strategy game where two teams of five heroes battle to destroy the enemy Ancient.",
    genres: ["Strategy", "Free to Play"],
    releaseDate: "2013-07-09",
    giftRegions: [],
    packages: [pkg(5701, "Dota 2", true, null)],
  },
  {
    appId: 1245620,
    title: "Elden Ring",
    titleRu: "Elden Ring",
    ru: "Ролевой экшен в мрачном фэнтезийном мире Междуземья: открытые просторы, огромные подземелья и опасные противники.",
    en: "An action RPG set in the Lands Between, a dark fantasy world of open plains, vast dungeons and deadly foes.",
    genres: ["RPG", "Action"],
    releaseDate: "2022-02-25",
    giftRegions: ["RU", "KZ"],
    packages: [pkg(12456201, "Elden Ring", true, [399900, 399900, 0])],
  },
];

export const DEMO_ANCHOR_GAMES: readonly GameInput[] = ANCHOR_SPECS.map((spec, i) => anchor(spec, i + 1));

export const DEMO_ANCHOR_GEAR: readonly GearItemInput[] = [
  { platformAppId: 730, item: "ak47-redline", title: "AK-47 | Redline (Field-Tested)", price: 125000, stock: 25 },
  { platformAppId: 730, item: "awp-asiimov", title: "AWP | Asiimov (Field-Tested)", price: 890000, stock: 0 },
  { platformAppId: 730, item: "sticker-capsule", title: "Sticker Capsule 2", price: 9900, stock: 1000 },
  { platformAppId: 730, item: "bench-stock", title: "Operation Pass", price: 49900, stock: 1_000_000_000 },
  { platformAppId: 570, item: "arcana-juggernaut", title: "Bladeform Legacy (Arcana)", price: 249900, stock: 10 },
  { platformAppId: 570, item: "immortal-treasure", title: "Immortal Treasure I", price: 39900, stock: 5000 },
];

function promo(code: string, kind: PromoCodeInput["kind"], value: number, extra: Partial<PromoCodeInput> = {}): PromoCodeInput {
  return {
    code,
    kind,
    value,
    appliesTo: "all",
    appIds: null,
    validFrom: null,
    validUntil: null,
    maxUses: null,
    uses: 0,
    ...extra,
  };
}

export const DEMO_PROMO_CODES: readonly PromoCodeInput[] = [
  promo("WELCOME10", "percent", 10),
  promo("MINUS300", "fixed", 30000),
  promo("GEAR15", "percent", 15, { appliesTo: "gear" }),
  promo("PORTAL50", "percent", 50, { appliesTo: "gifts", appIds: [620] }),
  promo("EXPIRED2025", "percent", 20, { validUntil: "2025-01-01T00:00:00Z" }),
  promo("USEDUP", "fixed", 10000, { maxUses: 1, uses: 1 }),
  promo("LIMITED5", "percent", 5, { maxUses: 5, uses: 0 }),
  promo("FUTURE30", "percent", 30, { validFrom: "2099-01-01T00:00:00Z" }),
];

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Each game draws from its own stream, so game i is the same whatever the catalog size.
function streamSeed(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  }
}

type Gender = "m" | "f" | "n" | "pl";
const GENDER_INDEX: Record<Gender, number> = { m: 0, f: 1, n: 2, pl: 3 };

interface Noun {
  en: string;
  ru: string;
  gen: string;
  g: Gender;
}

const noun = (en: string, ru: string, gen: string, g: Gender): Noun => ({ en, ru, gen, g });

const NOUNS: Noun[] = [
  noun("Harbor", "гавань", "гавани", "f"),
  noun("Frontier", "рубеж", "рубежа", "m"),
  noun("Kingdom", "королевство", "королевства", "n"),
  noun("Empire", "империя", "империи", "f"),
  noun("Legion", "легион", "легиона", "m"),
  noun("Horizon", "горизонт", "горизонта", "m"),
  noun("Dungeon", "подземелье", "подземелья", "n"),
  noun("Citadel", "цитадель", "цитадели", "f"),
  noun("Forest", "лес", "леса", "m"),
  noun("Island", "остров", "острова", "m"),
  noun("Ocean", "океан", "океана", "m"),
  noun("Wasteland", "пустошь", "пустоши", "f"),
  noun("Station", "станция", "станции", "f"),
  noun("Colony", "колония", "колонии", "f"),
  noun("Knight", "рыцарь", "рыцаря", "m"),
  noun("Crown", "корона", "короны", "f"),
  noun("Blade", "клинок", "клинка", "m"),
  noun("Star", "звезда", "звезды", "f"),
  noun("Sun", "солнце", "солнца", "n"),
  noun("Garden", "сад", "сада", "m"),
  noun("Tower", "башня", "башни", "f"),
  noun("Valley", "долина", "долины", "f"),
  noun("River", "река", "реки", "f"),
  noun("City", "город", "города", "m"),
  noun("Signal", "сигнал", "сигнала", "m"),
  noun("Protocol", "протокол", "протокола", "m"),
  noun("Sector", "сектор", "сектора", "m"),
  noun("Outpost", "аванпост", "аванпоста", "m"),
  noun("Voyage", "путешествие", "путешествия", "n"),
  noun("Throne", "трон", "трона", "m"),
  noun("Storm", "буря", "бури", "f"),
  noun("Dawn", "рассвет", "рассвета", "m"),
  noun("Night", "ночь", "ночи", "f"),
  noun("Abyss", "бездна", "бездны", "f"),
  noun("Labyrinth", "лабиринт", "лабиринта", "m"),
  noun("Fleet", "флот", "флота", "m"),
  noun("Hunter", "охотник", "охотника", "m"),
  noun("Witch", "ведьма", "ведьмы", "f"),
  noun("Wolf", "волк", "волка", "m"),
  noun("Dragon", "дракон", "дракона", "m"),
  noun("Engine", "двигатель", "двигателя", "m"),
  noun("Lighthouse", "маяк", "маяка", "m"),
  noun("Sea", "море", "моря", "n"),
  noun("Heart", "сердце", "сердца", "n"),
  noun("Road", "дорога", "дороги", "f"),
  noun("Circuit", "трасса", "трассы", "f"),
  noun("Arena", "арена", "арены", "f"),
  noun("Orbit", "орбита", "орбиты", "f"),
  noun("Mountains", "горы", "гор", "pl"),
  noun("Shadows", "тени", "теней", "pl"),
  noun("Ruins", "руины", "руин", "pl"),
  noun("Lands", "земли", "земель", "pl"),
  noun("Skies", "небеса", "небес", "pl"),
  noun("Tides", "приливы", "приливов", "pl"),
  noun("Realms", "царства", "царств", "pl"),
  noun("Souls", "души", "душ", "pl"),
];

/** English, then Russian forms for masculine, feminine, neuter and plural nouns. */
const ADJECTIVES: (readonly [string, string, string, string, string])[] = [
  ["Silent", "Тихий", "Тихая", "Тихое", "Тихие"],
  ["Hollow", "Пустой", "Пустая", "Пустое", "Пустые"],
  ["Crimson", "Багровый", "Багровая", "Багровое", "Багровые"],
  ["Broken", "Разбитый", "Разбитая", "Разбитое", "Разбитые"],
  ["Iron", "Железный", "Железная", "Железное", "Железные"],
  ["Last", "Последний", "Последняя", "Последнее", "Последние"],
  ["Forgotten", "Забытый", "Забытая", "Забытое", "Забытые"],
  ["Dark", "Тёмный", "Тёмная", "Тёмное", "Тёмные"],
  ["Frozen", "Ледяной", "Ледяная", "Ледяное", "Ледяные"],
  ["Burning", "Горящий", "Горящая", "Горящее", "Горящие"],
  ["Lost", "Потерянный", "Потерянная", "Потерянное", "Потерянные"],
  ["Eternal", "Вечный", "Вечная", "Вечное", "Вечные"],
  ["Wild", "Дикий", "Дикая", "Дикое", "Дикие"],
  ["Hidden", "Скрытый", "Скрытая", "Скрытое", "Скрытые"],
  ["Shattered", "Расколотый", "Расколотая", "Расколотое", "Расколотые"],
  ["Golden", "Золотой", "Золотая", "Золотое", "Золотые"],
  ["Black", "Чёрный", "Чёрная", "Чёрное", "Чёрные"],
  ["Neon", "Неоновый", "Неоновая", "Неоновое", "Неоновые"],
  ["Distant", "Далёкий", "Далёкая", "Далёкое", "Далёкие"],
  ["Ancient", "Древний", "Древняя", "Древнее", "Древние"],
  ["Endless", "Бесконечный", "Бесконечная", "Бесконечное", "Бесконечные"],
  ["Sunken", "Затонувший", "Затонувшая", "Затонувшее", "Затонувшие"],
  ["Stellar", "Звёздный", "Звёздная", "Звёздное", "Звёздные"],
  ["Rusty", "Ржавый", "Ржавая", "Ржавое", "Ржавые"],
  ["Northern", "Северный", "Северная", "Северное", "Северные"],
  ["Grim", "Мрачный", "Мрачная", "Мрачное", "Мрачные"],
  ["Little", "Маленький", "Маленькая", "Маленькое", "Маленькие"],
  ["Fallen", "Павший", "Павшая", "Павшее", "Павшие"],
  ["Cursed", "Проклятый", "Проклятая", "Проклятое", "Проклятые"],
  ["Steel", "Стальной", "Стальная", "Стальное", "Стальные"],
  ["Wandering", "Блуждающий", "Блуждающая", "Блуждающее", "Блуждающие"],
  ["Sacred", "Священный", "Священная", "Священное", "Священные"],
  ["Midnight", "Полуночный", "Полуночная", "Полуночное", "Полуночные"],
  ["Emerald", "Изумрудный", "Изумрудная", "Изумрудное", "Изумрудные"],
  ["Stone", "Каменный", "Каменная", "Каменное", "Каменные"],
  ["Phantom", "Призрачный", "Призрачная", "Призрачное", "Призрачные"],
];

/** "Echoes of the Abyss" becomes "Эхо бездны": the head noun, then the genitive. */
const HEADS: Pair[] = [
  ["Эхо", "Echoes"],
  ["Легенды", "Legends"],
  ["Тайны", "Secrets"],
  ["Повелители", "Lords"],
  ["Хроники", "Chronicles"],
  ["Стражи", "Guardians"],
  ["Дети", "Children"],
  ["Пепел", "Ashes"],
  ["Песнь", "Song"],
  ["Врата", "Gates"],
  ["Падение", "Fall"],
  ["Зов", "Call"],
  ["Путь", "Path"],
  ["Восхождение", "Rise"],
];

const SUBTITLES: Pair[] = [
  ["Возрождение", "Reborn"],
  ["Последний свет", "Last Light"],
  ["Истоки", "Origins"],
  ["Пробуждение", "Awakening"],
  ["Реквием", "Requiem"],
  ["Линия фронта", "Frontlines"],
  ["Исход", "Exodus"],
  ["Восхождение", "Ascension"],
  ["Потерянная корона", "The Lost Crown"],
  ["Наследие", "Legacy"],
  ["Восстание", "Uprising"],
  ["Затмение", "Eclipse"],
  ["Тёмный прилив", "Dark Tide"],
  ["Перекрёсток", "Crossroads"],
  ["Конец зимы", "Winter's End"],
  ["Осада", "Siege"],
];

const BRAND_PREFIXES = [
  "Star",
  "Iron",
  "Dusk",
  "Storm",
  "Frost",
  "Sky",
  "Shadow",
  "Ever",
  "Moon",
  "Sun",
  "Ash",
  "Void",
  "Night",
  "Dawn",
  "Hex",
  "Rune",
  "Cinder",
  "Thorn",
  "Deep",
  "Ember",
  "Grim",
  "Bright",
];
const BRAND_SUFFIXES = [
  "forge",
  "vale",
  "born",
  "fall",
  "hold",
  "reach",
  "gate",
  "wind",
  "light",
  "spire",
  "crest",
  "bound",
  "watch",
  "craft",
  "shard",
  "keep",
  "ward",
  "rise",
  "brook",
  "haven",
];
const BRAND_TAILS = [
  "Tactics",
  "Legends",
  "Online",
  "Chronicles",
  "Arena",
  "Survivors",
  "Odyssey",
  "Rush",
  "Rising",
  "Saga",
  "Heroes",
  "Tales",
  "Protocol",
  "Frontier",
];

/** The simulated thing, in English and in the Russian genitive: "Farm Simulator", "Симулятор фермы". */
const SIMULATOR_SUBJECTS: Pair[] = [
  ["фермы", "Farm"],
  ["грузовика", "Truck"],
  ["автобуса", "Bus"],
  ["поезда", "Train"],
  ["аэропорта", "Airport"],
  ["больницы", "Hospital"],
  ["пиццерии", "Pizza Shop"],
  ["автомеханика", "Car Mechanic"],
  ["рыбалки", "Fishing"],
  ["повара", "Chef"],
  ["полицейского", "Police"],
  ["пожарного", "Firefighter"],
  ["стройки", "Construction"],
  ["заправки", "Gas Station"],
  ["супермаркета", "Supermarket"],
  ["отеля", "Hotel"],
  ["шахтёра", "Miner"],
  ["трактора", "Tractor"],
  ["полётов", "Flight"],
  ["зоопарка", "Zoo"],
  ["железной дороги", "Railway"],
  ["такси", "Taxi"],
  ["охоты", "Hunting"],
  ["пекарни", "Bakery"],
  ["космической станции", "Space Station"],
  ["подводной лодки", "Submarine"],
];

const SEQUELS = ["2", "3", "II", "III", "4"];

interface Title {
  en: string;
  ru: string;
}

function generateTitle(rng: Rng, primary: Genre): Title {
  const simulator = primary === "Simulation" ? 0.55 : 0;
  const kind = rng.weighted<"simulator" | "adjective" | "of" | "brand">([
    ["simulator", simulator],
    ["adjective", 0.42],
    ["of", 0.2],
    ["brand", 0.38],
  ]);
  if (kind === "simulator") {
    const [ru, en] = rng.pick(SIMULATOR_SUBJECTS);
    const year = rng.chance(0.35) ? ` ${rng.int(2019, 2027)}` : "";
    return { en: `${en} Simulator${year}`, ru: `Симулятор ${ru}${year}` };
  }
  let title: Title;
  let translated: boolean;
  if (kind === "adjective") {
    const adjective = rng.pick(ADJECTIVES);
    const n = rng.pick(NOUNS);
    title = { en: `${adjective[0]} ${n.en}`, ru: `${adjective[1 + GENDER_INDEX[n.g]]} ${n.ru}` };
    translated = rng.chance(0.55);
  } else if (kind === "of") {
    const [ruHead, enHead] = rng.pick(HEADS);
    const n = rng.pick(NOUNS);
    title = { en: `${enHead} of the ${n.en}`, ru: `${ruHead} ${n.gen}` };
    translated = rng.chance(0.5);
  } else {
    const name = `${rng.pick(BRAND_PREFIXES)}${rng.pick(BRAND_SUFFIXES)}`;
    title = { en: rng.chance(0.4) ? `${name} ${rng.pick(BRAND_TAILS)}` : name, ru: "" };
    translated = false;
  }
  if (!translated) title = { en: title.en, ru: title.en };
  const roll = rng.float();
  if (roll < 0.1) {
    const sequel = rng.pick(SEQUELS);
    title = { en: `${title.en} ${sequel}`, ru: `${title.ru} ${sequel}` };
  } else if (roll < 0.25) {
    const [ru, en] = rng.pick(SUBTITLES);
    title = { en: `${title.en}: ${en}`, ru: `${title.ru}: ${translated ? ru : en}` };
  } else if (roll < 0.28) {
    const edition = rng.pick(["Remastered", "Definitive Edition"]);
    title = { en: `${title.en} ${edition}`, ru: `${title.ru} ${edition}` };
  }
  return title;
}

interface GenreText {
  leads: Pair[];
  topics: Pair[];
  /** Genres that sit naturally beside this one. */
  related: Genre[];
}

const TOPIC = {
  mercenaries: ["о наёмниках на окраине галактики", "about mercenaries on the edge of the galaxy"],
  revenge: ["о мести, предательстве и старой дружбе", "about revenge, betrayal and an old friendship"],
  knight: ["о рыцаре, потерявшем память", "about a knight who has lost his memory"],
  thieves: ["о команде воров в неоновом мегаполисе", "about a crew of thieves in a neon megacity"],
  arena: ["о боях на арене", "about arena battles"],
  dreams: ["о путешествии сквозь сны", "about a journey through dreams"],
  island: ["о спасении затерянного острова", "about saving a lost island"],
  lighthouse: ["о маяке на краю света", "about a lighthouse at the end of the world"],
  ruins: ["об исследовании затонувших руин", "about exploring sunken ruins"],
  detective: ["о детективе, расследующем странные исчезновения", "about a detective investigating strange disappearances"],
  kingdoms: ["о войне двух древних королевств", "about a war between two ancient kingdoms"],
  dragons: ["о приключениях в мире драконов", "about adventures in a world of dragons"],
  mage: ["о последнем маге павшего ордена", "about the last mage of a fallen order"],
  throne: ["о борьбе за трон раздробленной империи", "about the struggle for the throne of a divided empire"],
  colony: ["о строительстве колонии на далёкой планете", "about building a colony on a distant planet"],
  fleet: ["о флоте на краю галактики", "about a fleet at the edge of the galaxy"],
  merchants: ["о торговых империях Средневековья", "about the trading empires of the Middle Ages"],
  farm: ["о жизни на маленькой ферме у моря", "about life on a small farm by the sea"],
  business: ["о собственном деле, которое растёт с каждым днём", "about a business of your own that grows every day"],
  details: ["о работе, где важна каждая мелочь", "about a job where every detail matters"],
  quietLife: ["о спокойной жизни вдали от города", "about a quiet life far from the city"],
  career: ["о карьере с самых низов до вершины", "about a career from the bottom to the top"],
  smallBusiness: ["об управлении небольшим предприятием", "about running a small business"],
  football: ["о футбольной команде из маленького городка", "about a football team from a small town"],
  hockey: ["о профессиональном хоккее", "about professional hockey"],
  basketball: ["о баскетболе на улицах мегаполиса", "about street basketball in a big city"],
  boxer: ["о боксёре, идущем к титулу", "about a boxer chasing the title"],
  nightRacing: ["о гонках по ночным улицам", "about racing through city streets at night"],
  rally: ["о ралли по бездорожью", "about off-road rallying"],
  underground: ["о подпольных гонках", "about underground street racing"],
  antigrav: ["о гонках будущего на антигравах", "about futuristic anti-gravity racing"],
  robot: ["о маленьком роботе, который ищет дом", "about a little robot looking for a home"],
  cat: ["о кошке, которая спасает город", "about a cat who saves the city"],
  potions: ["о ведьме, которая открывает лавку зелий", "about a witch who opens a potion shop"],
  postman: ["о почтальоне в горной деревне", "about a mail carrier in a mountain village"],
  cafe: ["о кафе на берегу моря", "about a seaside café"],
  gardening: ["о садоводстве и уютных вечерах", "about gardening and cozy evenings"],
  hiddenObjects: ["о поиске предметов в старом доме", "about finding hidden objects in an old house"],
  portals: ["о порталах и законах физики", "about portals and the laws of physics"],
  mansion: ["о таинственном особняке", "about a mysterious mansion"],
  machinery: ["о древних механизмах", "about ancient machinery"],
  friends: ["о группе друзей, застрявших в лесу", "about a group of friends stranded in the woods"],
  hospital: ["о заброшенной больнице", "about an abandoned hospital"],
  village: ["о проклятой деревне", "about a cursed village"],
  mall: ["о ночной смене в пустом торговом центре", "about a night shift in an empty shopping mall"],
  fox: ["о лисе, которая ищет дорогу домой", "about a fox finding its way home"],
  roguelite: ["о подземельях, которые меняются с каждым забегом", "about dungeons that change with every run"],
  tournament: ["о турнире мастеров боевых искусств", "about a tournament of martial arts masters"],
  parallel: ["о бойцах из параллельных миров", "about fighters from parallel worlds"],
  specops: ["об отряде спецназа за линией фронта", "about a special forces squad behind enemy lines"],
  zombies: ["о зомби-апокалипсисе", "about the zombie apocalypse"],
  aliens: ["о вторжении инопланетян", "about an alien invasion"],
  pilots: ["о пилотах, защищающих последнюю станцию", "about pilots defending the last station"],
  nuclear: ["о ядерной зиме", "about a nuclear winter"],
  planeCrash: ["о крушении самолёта у необитаемого острова", "about a plane crash off a deserted island"],
  icePlanet: ["о колонистах на ледяной планете", "about colonists on an ice planet"],
  taiga: ["о жизни в дикой тайге", "about life in the wild taiga"],
  westerns: ["о жизни на Диком Западе", "about life in the Wild West"],
  pirates: ["о пиратах и морских сражениях", "about pirates and naval battles"],
  factions: ["о войне фракций за древние земли", "about a war of factions over ancient lands"],
  space: ["о торговле и исследовании космоса", "about trading and exploring space"],
} satisfies Record<string, Pair>;

const GENRE_TEXT: Record<Exclude<Genre, "Free to Play">, GenreText> = {
  Action: {
    leads: [
      ["Динамичный экшен", "A fast-paced action game"],
      ["Экшен от третьего лица", "A third-person action game"],
      ["Зрелищный слэшер", "A spectacular hack-and-slash"],
    ],
    topics: [TOPIC.revenge, TOPIC.knight, TOPIC.thieves, TOPIC.arena, TOPIC.mercenaries],
    related: ["Adventure", "Shooter", "Open World", "RPG", "Platformer", "Fighting"],
  },
  Adventure: {
    leads: [
      ["Приключенческая игра", "An adventure game"],
      ["Сюжетное приключение", "A story-driven adventure"],
      ["Атмосферное приключение", "An atmospheric adventure"],
    ],
    topics: [TOPIC.dreams, TOPIC.island, TOPIC.lighthouse, TOPIC.ruins, TOPIC.detective],
    related: ["Action", "Indie", "Puzzle", "Open World", "Casual"],
  },
  RPG: {
    leads: [
      ["Ролевая игра", "A role-playing game"],
      ["Масштабная ролевая игра", "An epic role-playing game"],
      ["Пошаговая ролевая игра", "A turn-based role-playing game"],
      ["Ролевой экшен", "An action RPG"],
    ],
    topics: [TOPIC.kingdoms, TOPIC.dragons, TOPIC.knight, TOPIC.mercenaries, TOPIC.mage],
    related: ["Action", "Adventure", "Open World", "Strategy", "Indie"],
  },
  Strategy: {
    leads: [
      ["Стратегия в реальном времени", "A real-time strategy game"],
      ["Пошаговая стратегия", "A turn-based strategy game"],
      ["Глобальная стратегия", "A grand strategy game"],
      ["Тактическая стратегия", "A tactical strategy game"],
    ],
    topics: [TOPIC.throne, TOPIC.colony, TOPIC.kingdoms, TOPIC.fleet, TOPIC.merchants],
    related: ["Simulation", "RPG", "Indie", "Massively Multiplayer"],
  },
  Simulation: {
    leads: [
      ["Реалистичный симулятор", "A realistic simulator"],
      ["Уютный симулятор", "A cozy simulation game"],
      ["Симулятор", "A simulation game"],
    ],
    topics: [TOPIC.business, TOPIC.details, TOPIC.quietLife, TOPIC.career, TOPIC.smallBusiness],
    related: ["Casual", "Strategy", "Indie", "Racing", "Sports"],
  },
  Sports: {
    leads: [
      ["Спортивный симулятор", "A sports game"],
      ["Аркадный спортивный симулятор", "An arcade sports game"],
    ],
    topics: [TOPIC.football, TOPIC.hockey, TOPIC.basketball, TOPIC.boxer],
    related: ["Simulation", "Casual", "Racing"],
  },
  Racing: {
    leads: [
      ["Гоночная аркада", "An arcade racing game"],
      ["Гоночный симулятор", "A racing simulator"],
      ["Гонка на выживание", "A survival racing game"],
    ],
    topics: [TOPIC.nightRacing, TOPIC.rally, TOPIC.underground, TOPIC.antigrav],
    related: ["Simulation", "Sports", "Open World", "Action"],
  },
  Indie: {
    leads: [
      ["Инди-игра", "An indie game"],
      ["Небольшая авторская игра", "A small handcrafted game"],
    ],
    topics: [TOPIC.robot, TOPIC.cat, TOPIC.potions, TOPIC.postman, TOPIC.lighthouse],
    related: ["Adventure", "Casual", "Puzzle", "Platformer", "RPG"],
  },
  Casual: {
    leads: [
      ["Казуальная игра", "A casual game"],
      ["Расслабляющая игра", "A relaxing game"],
    ],
    topics: [TOPIC.cafe, TOPIC.gardening, TOPIC.hiddenObjects, TOPIC.farm],
    related: ["Puzzle", "Indie", "Simulation"],
  },
  Puzzle: {
    leads: [
      ["Головоломка", "A puzzle game"],
      ["Логическая головоломка", "A logic puzzle game"],
      ["Физическая головоломка", "A physics-based puzzle game"],
    ],
    topics: [TOPIC.portals, TOPIC.mansion, TOPIC.dreams, TOPIC.machinery],
    related: ["Casual", "Indie", "Adventure"],
  },
  Horror: {
    leads: [
      ["Психологический хоррор", "A psychological horror game"],
      ["Хоррор на выживание", "A survival horror game"],
      ["Кооперативный хоррор", "A co-op horror game"],
    ],
    topics: [TOPIC.mansion, TOPIC.friends, TOPIC.hospital, TOPIC.village, TOPIC.mall],
    related: ["Survival", "Adventure", "Indie", "Action"],
  },
  Platformer: {
    leads: [
      ["Платформер", "A platformer"],
      ["Хардкорный платформер", "A challenging platformer"],
      ["Метроидвания", "A metroidvania"],
    ],
    topics: [TOPIC.robot, TOPIC.knight, TOPIC.fox, TOPIC.roguelite],
    related: ["Indie", "Action", "Adventure", "Puzzle"],
  },
  Fighting: {
    leads: [
      ["Файтинг", "A fighting game"],
      ["Аркадный файтинг", "An arcade fighting game"],
    ],
    topics: [TOPIC.tournament, TOPIC.arena, TOPIC.parallel],
    related: ["Action", "Sports", "Indie"],
  },
  Shooter: {
    leads: [
      ["Тактический шутер", "A tactical shooter"],
      ["Динамичный шутер от первого лица", "A fast-paced first-person shooter"],
      ["Кооперативный шутер", "A co-op shooter"],
      ["Шутер от третьего лица", "A third-person shooter"],
    ],
    topics: [TOPIC.mercenaries, TOPIC.specops, TOPIC.zombies, TOPIC.aliens, TOPIC.pilots],
    related: ["Action", "Survival", "Open World", "Massively Multiplayer"],
  },
  Survival: {
    leads: [
      ["Игра на выживание", "A survival game"],
      ["Суровая игра на выживание", "A harsh survival game"],
      ["Песочница на выживание", "A survival sandbox"],
    ],
    topics: [TOPIC.nuclear, TOPIC.planeCrash, TOPIC.icePlanet, TOPIC.zombies, TOPIC.taiga],
    related: ["Open World", "Horror", "Indie", "Shooter", "Simulation"],
  },
  "Open World": {
    leads: [
      ["Игра с открытым миром", "An open-world game"],
      ["Приключение в открытом мире", "An open-world adventure"],
    ],
    topics: [TOPIC.thieves, TOPIC.dragons, TOPIC.westerns, TOPIC.pirates],
    related: ["Action", "Adventure", "RPG", "Survival", "Racing"],
  },
  "Massively Multiplayer": {
    leads: [
      ["Многопользовательская онлайн-игра", "A massively multiplayer online game"],
      ["MMORPG", "An MMORPG"],
    ],
    topics: [TOPIC.factions, TOPIC.pirates, TOPIC.space],
    related: ["RPG", "Strategy", "Shooter", "Open World"],
  },
};

const FEATURES: Pair[] = [
  ["Кооператив до четырёх игроков.", "Co-op for up to four players."],
  ["Более 40 часов сюжетной кампании.", "Over 40 hours of story campaign."],
  ["Сотни предметов, умений и секретов.", "Hundreds of items, skills and secrets."],
  ["Ручная рисовка и оригинальный саундтрек.", "Hand-drawn art and an original soundtrack."],
  ["Процедурно генерируемые уровни.", "Procedurally generated levels."],
  ["Нелинейный сюжет с несколькими концовками.", "A branching story with multiple endings."],
  ["Полная русская локализация.", "Full Russian localization."],
  ["Поддержка модов и редактор уровней.", "Mod support and a level editor."],
  ["Сетевые матчи и таблицы рекордов.", "Online matches and leaderboards."],
  ["Огромный мир без загрузок.", "A vast seamless world."],
  ["Глубокая система крафта.", "A deep crafting system."],
  ["Пиксельная графика в духе классики.", "Pixel art in the spirit of the classics."],
  ["Более 100 уровней возрастающей сложности.", "More than 100 levels of rising difficulty."],
  ["Реалистичная физика и смена погоды.", "Realistic physics and dynamic weather."],
  ["Строительство базы и управление ресурсами.", "Base building and resource management."],
  ["Десятки видов оружия и модификаций.", "Dozens of weapons and mods."],
  ["Полная поддержка геймпада.", "Full controller support."],
  ["Фоторежим и редактор персонажа.", "A photo mode and a character creator."],
];

const PRIMARY_GENRES: (readonly [Exclude<Genre, "Free to Play">, number])[] = [
  ["Action", 16],
  ["Adventure", 13],
  ["Indie", 12],
  ["RPG", 9],
  ["Strategy", 8],
  ["Simulation", 8],
  ["Casual", 6],
  ["Shooter", 7],
  ["Puzzle", 5],
  ["Horror", 5],
  ["Platformer", 4],
  ["Racing", 3],
  ["Sports", 3],
  ["Survival", 4],
  ["Open World", 3],
  ["Fighting", 2],
  ["Massively Multiplayer", 2],
];

function describe(rng: Rng, primary: Exclude<Genre, "Free to Play">): { ru: string; en: string } {
  const text = GENRE_TEXT[primary];
  const [leadRu, leadEn] = rng.pick(text.leads);
  const [topicRu, topicEn] = rng.pick(text.topics);
  const first = rng.pick(FEATURES);
  let ru = `${leadRu} ${topicRu}. ${first[0]}`;
  let en = `${leadEn} ${topicEn}. ${first[1]}`;
  if (rng.chance(0.55)) {
    const second = rng.pick(FEATURES);
    if (second !== first) {
      ru += ` ${second[0]}`;
      en += ` ${second[1]}`;
    }
  }
  return { ru, en };
}

const PRICE_TIERS_RUB = [
  99, 149, 199, 249, 299, 349, 399, 449, 499, 549, 599, 699, 799, 899, 999, 1099, 1199, 1299, 1499, 1699, 1799, 1999, 2199, 2499, 2799,
  2999, 3499, 3999, 4499, 4999,
];

const DISCOUNTS = [10, 15, 20, 25, 30, 33, 35, 40, 50, 50, 60, 66, 70, 75, 75, 80, 85, 90];

const CHEAP_GENRES = new Set<Genre>(["Indie", "Casual", "Puzzle", "Platformer"]);

function tierAtLeast(rub: number): number {
  const tier = PRICE_TIERS_RUB.find((t) => t >= rub);
  return (tier ?? Math.ceil((rub + 1) / 500) * 500 - 1) * 100;
}

export function discountedPrice(initial: number, discountPercent: number): number {
  return Math.round((initial * (100 - discountPercent)) / 10_000) * 100;
}

interface Edition {
  suffix: (title: string) => string;
  factor: number;
}

const colonOr = (title: string, name: string) => (title.includes(":") ? `${title} - ${name}` : `${title}: ${name}`);
const DELUXE: Edition = { suffix: (t) => colonOr(t, "Deluxe Edition"), factor: 1.45 };
const DIGITAL_DELUXE: Edition = { suffix: (t) => colonOr(t, "Digital Deluxe Edition"), factor: 1.5 };
const GOLD: Edition = { suffix: (t) => colonOr(t, "Gold Edition"), factor: 1.9 };
const ULTIMATE: Edition = { suffix: (t) => colonOr(t, "Ultimate Edition"), factor: 2.2 };
const COMPLETE: Edition = { suffix: (t) => colonOr(t, "Complete Edition"), factor: 1.7 };
const SOUNDTRACK: Edition = { suffix: (t) => `${t} + Soundtrack`, factor: 1.25 };

const SECOND_EDITIONS = [DELUXE, DIGITAL_DELUXE, GOLD, SOUNDTRACK, COMPLETE];
const EDITION_PAIRS: (readonly [Edition, Edition])[] = [
  [DELUXE, ULTIMATE],
  [DELUXE, GOLD],
  [SOUNDTRACK, DELUXE],
  [DIGITAL_DELUXE, ULTIMATE],
  [SOUNDTRACK, COMPLETE],
];

function buildPackages(rng: Rng, appId: number, title: string, primary: Genre, priced: boolean, discount: number): PackageInput[] {
  if (!priced) return [{ packageId: appId * 10 + 1, title, isMain: true, priceInitial: null, priceFinal: null, discountPercent: 0 }];
  const skew = CHEAP_GENRES.has(primary) ? 2.2 : 1.4;
  const mainRub = PRICE_TIERS_RUB[Math.floor(rng.float() ** skew * PRICE_TIERS_RUB.length)]!;
  const count = rng.weighted([
    [1, 60],
    [2, 28],
    [3, 12],
  ]);
  const editions = count === 1 ? [] : count === 2 ? [rng.pick(SECOND_EDITIONS)] : [...rng.pick(EDITION_PAIRS)];
  const prices = (initial: number) =>
    discount > 0
      ? { priceInitial: initial, priceFinal: discountedPrice(initial, discount), discountPercent: discount }
      : { priceInitial: initial, priceFinal: initial, discountPercent: 0 };
  const main: PackageInput = { packageId: appId * 10 + 1, title, isMain: true, ...prices(mainRub * 100) };
  return [
    main,
    ...editions.map((edition, k) => ({
      packageId: appId * 10 + 2 + k,
      title: edition.suffix(title),
      isMain: false,
      ...prices(tierAtLeast(mainRub * edition.factor)),
    })),
  ];
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function pickRegions(rng: Rng): string[] {
  const odds: Record<(typeof GIFT_REGIONS)[number], number> = {
    RU: 0.94,
    KZ: 0.7,
    BY: 0.6,
    AM: 0.4,
    GE: 0.35,
    UZ: 0.35,
    KG: 0.3,
    AZ: 0.3,
    MD: 0.25,
    UA: 0.2,
    TR: 0.1,
    US: 0.08,
    EU: 0.08,
  };
  const regions = GIFT_REGIONS.filter((r) => rng.chance(odds[r]));
  return regions.length > 0 ? regions : ["RU"];
}

function pickGenres(rng: Rng, primary: Exclude<Genre, "Free to Play">, freeToPlay: boolean): Genre[] {
  const count = rng.weighted([
    [1, 35],
    [2, 40],
    [3, 25],
  ]);
  const genres: Genre[] = [primary];
  const related = GENRE_TEXT[primary].related;
  while (genres.length < count) {
    const g = rng.pick(related);
    if (!genres.includes(g)) genres.push(g);
    else if (related.every((r) => genres.includes(r))) break;
  }
  if (freeToPlay) {
    if (genres.length === 3) genres.pop();
    genres.push("Free to Play");
  }
  return genres;
}

function generateGame(seed: number, index: number, total: number): GameInput {
  const rng = new Rng(streamSeed(seed, index));
  const appId = FIRST_GENERATED_APP_ID + (index - ANCHOR_SPECS.length) * 10;
  const primary = rng.weighted(PRIMARY_GENRES);

  const state = rng.weighted<"released" | "coming_soon" | "unpriced" | "free">([
    ["released", 95.8],
    ["coming_soon", 2],
    ["unpriced", 1.1],
    ["free", 1.1],
  ]);
  const comingSoon = state === "coming_soon";
  const priced = state === "released" || (comingSoon && rng.chance(0.5));
  const discount = state === "released" && rng.chance(0.157) ? rng.pick(DISCOUNTS) : 0;

  const title = generateTitle(rng, primary);
  const { ru, en } = describe(rng, primary);
  const genres = pickGenres(rng, primary, state === "free");

  const popular = index < total * 0.1;
  const featured: FeaturedList[] = [];
  if (!comingSoon && rng.chance(popular ? 0.25 : 0.01)) featured.push("top_sellers");
  const newRelease = !comingSoon && rng.chance(0.03);
  if (newRelease) featured.push("new_releases");

  let releaseDate: string | null;
  if (comingSoon) releaseDate = rng.chance(0.4) ? null : isoDay(REFERENCE_DAY + rng.int(20, 400) * DAY_MS);
  else if (newRelease) releaseDate = isoDay(REFERENCE_DAY - rng.int(0, 45) * DAY_MS);
  else releaseDate = isoDay(REFERENCE_DAY - Math.floor(rng.float() ** 2 * 18 * 365) * DAY_MS);

  const giftRegions = state === "free" || rng.chance(0.01) ? [] : pickRegions(rng);

  return withRegionPrices({
    appId,
    title: title.en,
    titleRu: title.ru,
    shortDescription: ru,
    shortDescriptionEn: en,
    headerImage: null,
    genres,
    featured,
    comingSoon,
    releaseDate,
    sortRank: index + 1,
    giftRegions,
    packages: buildPackages(rng, appId, title.en, primary, priced, discount),
  });
}

function checkSize(games: number): void {
  if (!Number.isInteger(games) || games < ANCHOR_SPECS.length) {
    throw new RangeError(`games must be an integer of at least ${ANCHOR_SPECS.length} (the anchor games), got ${games}`);
  }
}

/** Yields the catalog's games one by one, anchors first, so a large catalog never sits in memory whole. */
export function* generateDemoGames({ games, seed = DEFAULT_DEMO_SEED }: DemoCatalogOptions): Generator<GameInput, void, undefined> {
  checkSize(games);
  for (const game of DEMO_ANCHOR_GAMES) yield structuredClone(game);
  for (let i = ANCHOR_SPECS.length; i < games; i++) yield generateGame(seed, i, games);
}

const CS_WEAPONS = [
  "AK-47",
  "M4A4",
  "M4A1-S",
  "AWP",
  "Desert Eagle",
  "USP-S",
  "Glock-18",
  "P250",
  "MP9",
  "UMP-45",
  "FAMAS",
  "Galil AR",
  "SSG 08",
  "MAC-10",
  "P90",
];
const CS_FINISHES = [
  "Slate",
  "Vulcan",
  "Neon Rider",
  "Bloodsport",
  "Fire Serpent",
  "Printstream",
  "Case Hardened",
  "Fade",
  "Hyper Beast",
  "Neo-Noir",
  "Cyrex",
  "Night Riot",
  "Phantom Disruptor",
  "Asiimov",
];
const CS_WEAR: Pair[] = [
  ["fn", "Factory New"],
  ["mw", "Minimal Wear"],
  ["ft", "Field-Tested"],
  ["ww", "Well-Worn"],
  ["bs", "Battle-Scarred"],
];
const DOTA_SETS = [
  "Stormcrafter",
  "Ember Regalia",
  "Frostborne Mantle",
  "Eclipse Talon",
  "Verdant Crown",
  "Abyssal Warden",
  "Tidebreaker Helm",
  "Sunforged Aegis",
  "Voidwalker Shroud",
  "Thunderhowl Pauldrons",
];
const DOTA_RARITIES: Pair[] = [
  ["immortal", "Immortal"],
  ["mythical", "Mythical"],
  ["legendary", "Legendary"],
  ["rare", "Rare"],
];

const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function gearStock(rng: Rng): number {
  return rng.weighted([
    [0, 15],
    [rng.int(1, 9), 35],
    [rng.int(10, 500), 50],
  ]);
}

export function generateDemoGearItems(seed = DEFAULT_DEMO_SEED): GearItemInput[] {
  const rng = new Rng(streamSeed(seed, -1));
  const items: GearItemInput[] = [...DEMO_ANCHOR_GEAR];
  const seen = new Set(items.map((g) => `${g.platformAppId}/${g.item}`));
  const add = (item: GearItemInput) => {
    const key = `${item.platformAppId}/${item.item}`;
    if (seen.has(key)) return;
    seen.add(key);
    items.push(item);
  };
  for (let n = 0; n < 24; n++) {
    const weapon = rng.pick(CS_WEAPONS);
    const finish = rng.pick(CS_FINISHES);
    const [wearSlug, wear] = rng.pick(CS_WEAR);
    add({
      platformAppId: 730,
      item: slugify(`${weapon} ${finish} ${wearSlug}`),
      title: `${weapon} | ${finish} (${wear})`,
      price: tierAtLeast(rng.float() ** 2 * 20_000),
      stock: gearStock(rng),
    });
  }
  for (const name of ["Kilowatt Case", "Revolution Case", "Dreams & Nightmares Case", "Sticker Capsule 3"]) {
    add({ platformAppId: 730, item: slugify(name), title: name, price: tierAtLeast(rng.int(99, 399)), stock: gearStock(rng) });
  }
  for (let n = 0; n < 14; n++) {
    const set = rng.pick(DOTA_SETS);
    const [raritySlug, rarity] = rng.pick(DOTA_RARITIES);
    add({
      platformAppId: 570,
      item: slugify(`${set} ${raritySlug}`),
      title: `${set} (${rarity})`,
      price: tierAtLeast(rng.float() ** 2 * 5000),
      stock: gearStock(rng),
    });
  }
  return items;
}

/** The whole catalog in memory; for very large catalogs iterate `generateDemoGames` instead. */
export function generateDemoCatalog(opts: DemoCatalogOptions): DemoCatalog {
  return {
    games: [...generateDemoGames(opts)],
    gearItems: generateDemoGearItems(opts.seed),
    promoCodes: DEMO_PROMO_CODES.map((p) => ({ ...p, appIds: p.appIds && [...p.appIds] })),
  };
}
