import "server-only";
import { inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbExecutor } from "@/lib/db/client";
import { games } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { MAX_PRICE_KOPECKS } from "@/lib/money";
import { refreshCatalogCounts, upsertGames, type GameInput, type PackageInput, type RegionPriceInput } from "@/lib/services/catalog-write";
import { ImportProblemTally, type ImportEntry, type ImportProblemList, type ImportSkip, type ImportWarning } from "./import-problems";
import { upsertCurrencyRates, type CurrencyRateInput } from "@/lib/services/giftability";

// Imports files of the store's `appdetails` responses: the store's own (fetched with cc=ru, so amounts
// are kopecks) and, optionally, one per other region (cc=kz, cc=tr, ...) for the regional prices.

export type ImportedGame = Omit<GameInput, "featured" | "sortRank">;

export type { ImportSkip, ImportWarning } from "./import-problems";

export interface ParsedAppdetails {
  games: ImportedGame[];
  skipped: ImportProblemTally<ImportSkip>;
  warnings: ImportProblemTally<ImportWarning>;
}

/** A file's text, or its bytes as they are read (a stream of an upload or of a file on disk). */
export type ImportSource = string | AsyncIterable<Uint8Array | string>;

export interface ImportOptions {
  /** The file says nothing about gift regions; new games get these. */
  defaultGiftRegions?: string[];
  /** Files fetched with another `cc=`, one per region, as read (`readRegionalAppdetails`): each package's price there, in the file's currency. */
  regional?: readonly RegionalFile[];
  /**
   * Write the games this many at a time and report after each batch (the back office's progress).
   * A batch the database refuses is then written game by game, and each game it still refuses is
   * reported in `failed` instead of ending the import.
   */
  batches?: { size: number; onProgress: (done: number, total: number) => void | Promise<void> };
  /** Dated currency rates to store with the games, so the one refresh of giftability weighs both. */
  rates?: readonly CurrencyRateInput[];
}

export interface ImportSummary {
  imported: number;
  updated: number;
  /** Every entry not written: refused by the file's rules, then (with `batches` only) by the database. */
  skipped: ImportProblemList<ImportSkip>;
  warnings: ImportProblemList<ImportWarning>;
}

export const DEFAULT_GIFT_REGIONS = ["RU"];

const kopecks = z.number().int().min(0).max(MAX_PRICE_KOPECKS);

const appdetailsDataSchema = z.object({
  type: z.string(),
  name: z.string().trim().min(1),
  steam_appid: z.number().int().positive().max(2_147_483_647),
  short_description: z.string().default(""),
  header_image: z.string().nullish(),
  is_free: z.boolean().default(false),
  genres: z.array(z.object({ id: z.union([z.string(), z.number()]), description: z.string() })).default([]),
  release_date: z.object({ coming_soon: z.boolean(), date: z.string().default("") }).optional(),
  price_overview: z
    .object({
      currency: z.string().regex(/^[A-Z]{3}$/),
      initial: kopecks,
      final: kopecks,
      discount_percent: z.number().int().min(0).max(100),
    })
    .optional(),
  packages: z.array(z.number().int().positive()).default([]),
  package_groups: z
    .array(
      z.object({
        subs: z
          .array(
            z.object({
              packageid: z.number().int().positive().max(2_147_483_647),
              option_text: z.string().default(""),
              price_in_cents_with_discount: kopecks.optional(),
              percent_savings: z.number().int().min(0).max(100).optional(),
              is_free_license: z.boolean().optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

type AppdetailsData = z.infer<typeof appdetailsDataSchema>;

const entrySchema = z.object({ success: z.boolean(), data: z.unknown().optional() });
const typedEntrySchema = z.object({ type: z.string() });

/** The store's genre ids, so a file fetched with a Russian `l=` still gets the catalog's English genre names. */
const GENRE_NAMES: Record<string, string> = {
  "1": "Action",
  "2": "Strategy",
  "3": "RPG",
  "4": "Casual",
  "9": "Racing",
  "18": "Sports",
  "23": "Indie",
  "25": "Adventure",
  "28": "Simulation",
  "29": "Massively Multiplayer",
  "37": "Free to Play",
  "70": "Early Access",
};

type DocumentSink = (where: ImportEntry, value: unknown) => void;

/**
 * The JSON documents of a file as its text arrives: one object, an array of them, or one per line
 * (JSON lines), exactly as parsing the whole text first and, failing that, each line would find
 * them. Memory holds one line, never the file's lines, and a bad line is a problem counted
 * (`problems`), not kept. Only a file that may be one document over several lines (its first line
 * opens an object or array it does not close) is kept whole until its end, to be parsed as one, as
 * it must be; its lines are judged as JSON lines meanwhile, so that if it is no document the
 * result is there at once, with no second pass.
 */
class DocumentReader {
  private readonly decoder = new TextDecoder("utf-8");
  private line: string[] = [];
  private lineNumber = 0;
  private mode: "start" | "held" | "lines" | "document" = "start";
  /** The first line with text, parsed, until a second one says the file is JSON lines (or the end says it is the whole). */
  private held: { line: number; value: unknown } | null = null;
  /**
   * While the file may be one document: its text from the first line on as it came (whole
   * chunks), that line's number and length, and what its lines are as JSON lines (which of them
   * parse, and the problems of the rest), for when it is not.
   */
  private document: {
    pieces: string[];
    from: number;
    first: number;
    asLines: { parsed: number[]; problems: ImportProblemTally<ImportSkip> };
  } | null = null;

  constructor(
    private readonly emit: DocumentSink,
    private readonly problems: ImportProblemTally<ImportSkip>,
    private readonly region?: string,
  ) {}

  push(chunk: Uint8Array | string): void {
    let text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    // A byte-order mark is not JSON; the decoder drops it from bytes, and a text in hand loses it too.
    if (this.lineNumber === 0 && this.line.length === 0 && text.startsWith("\ufeff")) text = text.slice(1);
    this.document?.pieces.push(text);
    let start = 0;
    for (let cut = text.indexOf("\n"); cut >= 0; cut = text.indexOf("\n", start)) {
      this.line.push(text.slice(start, cut));
      start = cut + 1;
      // What the chunk has after this line: the text a document beginning here keeps.
      this.endLine(this.mode === "start" ? text.slice(start) : "");
    }
    if (start < text.length) this.line.push(text.slice(start));
  }

  end(): void {
    this.push(this.decoder.decode());
    if (this.line.length > 0) this.endLine("");
    if (this.held) this.whole(this.held.value);
    if (this.document) this.endDocument(this.document);
  }

  /** `rest` is what the current chunk has after the line (the text a document starting here keeps). */
  private endLine(rest: string): void {
    const text = this.line.length === 1 ? this.line[0]! : this.line.join("");
    this.line = [];
    this.lineNumber += 1;
    const trimmed = text.trim();
    if (trimmed === "") return;
    if (this.mode === "start") return this.firstLine(text, trimmed, rest);
    if (this.held) {
      this.emit({ line: this.held.line }, this.held.value);
      this.held = null;
      this.mode = "lines";
    }
    this.jsonLine(this.lineNumber, text, trimmed);
  }

  private firstLine(text: string, trimmed: string, rest: string): void {
    const value = parseJson(text, trimmed);
    if (value !== NOT_JSON) {
      this.held = { line: this.lineNumber, value };
      this.mode = "held";
      return;
    }
    if (trimmed[0] === "{" || trimmed[0] === "[") {
      this.mode = "document";
      const asLines = { parsed: [], problems: new ImportProblemTally<ImportSkip>() };
      this.document = { pieces: [text, "\n", rest], from: this.lineNumber, first: text.length + 1, asLines };
    } else this.mode = "lines";
    this.notJson(this.lineNumber);
  }

  private jsonLine(line: number, text: string, trimmed: string): void {
    const value = parseJson(text, trimmed);
    if (value === NOT_JSON) this.notJson(line);
    // Its value is parsed again if the file turns out to be JSON lines: keeping them all meanwhile could cost more than the file.
    else if (this.document) this.document.asLines.parsed.push(line);
    else this.emit({ line }, value);
  }

  private notJson(line: number): void {
    (this.document?.asLines.problems ?? this.problems).add({ entry: { line }, region: this.region, reason: "not_json", details: {} });
  }

  /** The file is one JSON value: an array's items are the documents, else the value is. */
  private whole(value: unknown): void {
    if (Array.isArray(value)) value.forEach((item, i) => this.emit({ item: i + 1 }, item));
    else this.emit({ document: true }, value);
  }

  /** A file kept whole is one document if it parses; else it is what its lines were, as JSON lines. */
  private endDocument({ pieces, from, first, asLines }: NonNullable<DocumentReader["document"]>): void {
    this.document = null;
    const text = pieces.join("");
    pieces.length = 0;
    // A first line with nothing after it did not parse alone when it came; it is no more JSON now.
    const value = text.slice(first).trim() === "" ? NOT_JSON : parseJson(text, text.trim());
    if (value !== NOT_JSON) return this.whole(value);
    this.problems.addAll(asLines.problems);
    let at = 0;
    let line = from;
    for (const wanted of asLines.parsed) {
      for (; line < wanted; line += 1) at = text.indexOf("\n", at) + 1;
      const next = text.indexOf("\n", at);
      this.emit({ line }, JSON.parse(next < 0 ? text.slice(at) : text.slice(at, next)));
    }
  }
}

const NOT_JSON = Symbol("not JSON");

/** How a JSON value's text ends, by how it starts: a line that does not is refused without parsing (parsing junk costs). */
const CLOSERS: Record<string, RegExp> = {
  "{": /}$/,
  "[": /]$/,
  '"': /^"[\s\S]*"$/,
  t: /e$/,
  f: /e$/,
  n: /l$/,
  "-": /\d$/,
};

function parseJson(text: string, trimmed: string): unknown {
  const first = trimmed[0]!;
  const closer = first >= "0" && first <= "9" ? CLOSERS["-"] : CLOSERS[first];
  if (!closer?.test(trimmed)) return NOT_JSON;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** Feeds a source to a reader: a text at once, a stream chunk by chunk as it arrives. */
async function feed(source: ImportSource, reader: { push(chunk: Uint8Array | string): void; end(): void }): Promise<void> {
  if (typeof source === "string") reader.push(source);
  else for await (const chunk of source) reader.push(chunk);
  reader.end();
}

/** Reads a store file (cc=ru) as it arrives: `{ "<appid>": {success, data} }`, an array of them, or one per line. */
export async function readAppdetails(
  source: ImportSource,
  opts: Pick<ImportOptions, "defaultGiftRegions"> = {},
): Promise<ParsedAppdetails> {
  const reader = new AppdetailsReader(opts);
  await feed(source, reader);
  return reader.result();
}

/** `readAppdetails` of a text in hand. */
export function parseAppdetails(text: string, opts: Pick<ImportOptions, "defaultGiftRegions"> = {}): ParsedAppdetails {
  const reader = new AppdetailsReader(opts);
  reader.push(text);
  reader.end();
  return reader.result();
}

/** The store file's games as its documents come, the later of two entries for one app kept. */
class AppdetailsReader {
  private readonly skipped = new ImportProblemTally<ImportSkip>();
  private readonly warnings = new ImportProblemTally<ImportWarning>();
  private readonly byApp = new Map<number, { key: string; game: ImportedGame }>();
  private readonly documents: DocumentReader;

  constructor(private readonly opts: Pick<ImportOptions, "defaultGiftRegions">) {
    this.documents = new DocumentReader((where, value) => this.document(where, value), this.skipped);
  }

  push(chunk: Uint8Array | string): void {
    this.documents.push(chunk);
  }

  end(): void {
    this.documents.end();
  }

  private document(where: ImportEntry, value: unknown): void {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.skipped.add({ entry: where, reason: "not_keyed_by_app_id", details: {} });
      return;
    }
    for (const [key, entry] of Object.entries(value)) {
      const result = mapEntry(entry, this.opts.defaultGiftRegions ?? DEFAULT_GIFT_REGIONS, (w) => this.warnings.add(w));
      if ("refusal" in result) {
        this.skipped.add({ entry: { app: key }, ...result.refusal } as ImportSkip);
        continue;
      }
      const earlier = this.byApp.get(result.appId);
      if (earlier) this.skipped.add({ entry: { app: earlier.key }, reason: "superseded", details: { appId: result.appId } });
      this.byApp.set(result.appId, { key, game: result });
    }
  }

  /** The games, each package with the first app of the file that names it. */
  result(): ParsedAppdetails {
    const owners = new Map<number, number>();
    const parsed: ImportedGame[] = [];
    for (const { key, game } of this.byApp.values()) {
      const own = game.packages.filter((p) => {
        const owner = owners.get(p.packageId);
        if (owner === undefined) return true;
        this.warnings.add({ reason: "package_taken", details: { appId: game.appId, packageId: p.packageId, owner } });
        return false;
      });
      if (own.length === 0) {
        this.skipped.add({ entry: { app: key }, reason: "packages_taken", details: {} });
        continue;
      }
      if (!own.some((p) => p.isMain)) own[0] = { ...own[0]!, isMain: true };
      for (const p of own) owners.set(p.packageId, game.appId);
      parsed.push({ ...game, packages: own });
    }
    return { games: parsed, skipped: this.skipped, warnings: this.warnings };
  }
}

type Refusal = Omit<ImportSkip, "entry" | "region">;

function mapEntry(entry: unknown, giftRegions: string[], warn: (warning: ImportWarning) => void): ImportedGame | { refusal: Refusal } {
  const outer = entrySchema.safeParse(entry);
  if (!outer.success) return { refusal: { reason: "invalid_entry", details: { fields: fieldsOf(outer.error) } } };
  if (!outer.data.success) return { refusal: { reason: "store_returned_nothing", details: {} } };
  const typed = typedEntrySchema.safeParse(outer.data.data);
  if (typed.success && typed.data.type !== "game")
    return { refusal: { reason: "not_a_game", details: { type: typed.data.type.slice(0, 40) } } };
  const data = appdetailsDataSchema.safeParse(outer.data.data);
  if (!data.success) return { refusal: dataRefusal(data.error) };
  if (data.data.price_overview && data.data.price_overview.currency !== "RUB")
    return { refusal: { reason: "currency_not_rub", details: { currency: data.data.price_overview.currency } } };
  return toGame(data.data, giftRegions, warn);
}

/** The JSON paths at fault (at most three), as the file names them. */
function fieldsOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length > 0 ? i.path.join(".") : "(root)"))
    .join(", ");
}

/** A price past the store's bound is named as such (it would fail at checkout later); anything else by its fields. */
function dataRefusal(error: z.ZodError): Refusal {
  const dear = error.issues.find((i) => i.code === "too_big" && Number(i.maximum) === MAX_PRICE_KOPECKS);
  if (dear) return { reason: "price_too_high", details: { field: dear.path.join("."), maxRub: MAX_PRICE_KOPECKS / 100 } };
  return { reason: "invalid_data", details: { fields: fieldsOf(error) } };
}

function toGame(d: AppdetailsData, giftRegions: string[], warn: (warning: ImportWarning) => void): ImportedGame {
  const description = plainText(d.short_description);
  const russian = /[А-Яа-яЁё]/.test(description);
  return {
    appId: d.steam_appid,
    title: d.name,
    titleRu: null,
    shortDescription: description,
    shortDescriptionEn: russian ? null : description,
    headerImage: coverUrl(d.steam_appid, d.header_image, warn),
    genres: [...new Set(d.genres.map((g) => GENRE_NAMES[String(g.id)] ?? g.description.trim()).filter(Boolean))],
    comingSoon: d.release_date?.coming_soon ?? false,
    releaseDate: parseReleaseDate(d.release_date?.date ?? ""),
    giftRegions: [...giftRegions],
    packages: toPackages(d),
  };
}

/**
 * The cover goes into pages' <img> and og:image as it is, so only an absolute https URL with a host
 * and no credentials is kept; anything else is left out (the generated cover is shown) and reported.
 * One whose host the page policy does not allow is kept but reported: it shows once IMAGE_HOSTS has it.
 */
function coverUrl(appId: number, value: string | null | undefined, warn: (warning: ImportWarning) => void): string | null {
  const text = value?.trim();
  if (!text) return null;
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || url.protocol !== "https:" || !url.hostname || url.username || url.password || !text.toLowerCase().startsWith("https://")) {
    warn({ reason: "cover_not_https", details: { appId } });
    return null;
  }
  if (!imageHostAllowed(url.hostname)) warn({ reason: "cover_host_not_allowed", details: { appId, host: url.hostname } });
  return url.href;
}

function imageHostAllowed(host: string): boolean {
  return env.IMAGE_HOSTS.some((allowed) => (allowed.startsWith("*.") ? host.endsWith(allowed.slice(1)) : host === allowed));
}

type Prices = Pick<PackageInput, "priceInitial" | "priceFinal" | "discountPercent">;

const NO_PRICE: Prices = { priceInitial: null, priceFinal: null, discountPercent: 0 };

/** Store data is not always self-consistent; the database insists that it is. */
export function normalizePrices(initial: number, final: number, discountPercent: number): Prices {
  if (final <= 0) return NO_PRICE;
  if (initial <= final) return { priceInitial: final, priceFinal: final, discountPercent: 0 };
  const discount = discountPercent > 0 ? discountPercent : Math.round((1 - final / initial) * 100);
  return { priceInitial: initial, priceFinal: final, discountPercent: Math.min(99, Math.max(1, discount)) };
}

function toPackages(d: AppdetailsData): PackageInput[] {
  const overview = d.price_overview;
  const mainPrices = overview ? normalizePrices(overview.initial, overview.final, overview.discount_percent) : NO_PRICE;
  const subs = d.package_groups.flatMap((g) => g.subs).filter((s, i, all) => all.findIndex((o) => o.packageid === s.packageid) === i);
  if (subs.length === 0) {
    const packageId = d.packages[0] ?? d.steam_appid * 10 + 1;
    return [{ packageId, title: d.name, isMain: true, ...mainPrices }];
  }
  const mainIndex = Math.max(
    0,
    subs.findIndex((s) => overview !== undefined && s.price_in_cents_with_discount === overview.final),
  );
  return subs.map((s, i) => ({
    packageId: s.packageid,
    title: packageTitle(s.option_text) || d.name,
    isMain: i === mainIndex,
    ...(i === mainIndex && overview ? mainPrices : subPrices(s.price_in_cents_with_discount, s.percent_savings, s.is_free_license)),
  }));
}

function subPrices(final: number | undefined, savings = 0, freeLicense = false): Prices {
  if (final === undefined || final <= 0 || freeLicense) return NO_PRICE;
  if (savings <= 0 || savings >= 100) return { priceInitial: final, priceFinal: final, discountPercent: 0 };
  const initial = Math.max(final + 100, Math.round(final / (1 - savings / 100) / 100) * 100);
  return { priceInitial: initial, priceFinal: final, discountPercent: savings };
}

/** `option_text` is "Name - 1 199 pуб." (or with a struck-out old price); the name is what we want. */
export function packageTitle(optionText: string): string {
  const text = plainText(optionText);
  const cut = text.lastIndexOf(" - ");
  if (cut < 0) return text;
  const tail = text.slice(cut + 3);
  const isPrice = /\d/.test(tail) ? /(уб|₽|rub)/i.test(tail) : /^(free|бесплатно)$/i.test(tail.trim());
  return isPrice ? text.slice(0, cut).trim() : text;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  laquo: "«",
  raquo: "»",
  mdash: "—",
  ndash: "–",
};

export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  янв: 1,
  фев: 2,
  мар: 3,
  апр: 4,
  мая: 5,
  май: 5,
  июн: 6,
  июл: 7,
  авг: 8,
  сен: 9,
  окт: 10,
  ноя: 11,
  дек: 12,
};

/** "10 Dec, 2020", "Dec 10, 2020", "10 дек. 2020 г." or "2020-12-10"; anything vaguer ("Q1 2027", "Coming soon") is null. */
export function parseReleaseDate(text: string): string | null {
  const s = text.trim().toLowerCase();
  let year: number, month: number | undefined, day: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  const dayFirst = /^(\d{1,2})\s+([a-zа-яё]+)\.?,?\s+(\d{4})/.exec(s);
  const monthFirst = /^([a-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(s);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dayFirst) [year, month, day] = [Number(dayFirst[3]), MONTHS[dayFirst[2]!.slice(0, 3)], Number(dayFirst[1])];
  else if (monthFirst) [year, month, day] = [Number(monthFirst[3]), MONTHS[monthFirst[1]!.slice(0, 3)], Number(monthFirst[2])];
  else return null;
  if (month === undefined) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** What one region's file says about an app: not sold there, or its main price and each package's (null: none there). */
type RegionalApp =
  { restricted: true } | { restricted: false; currency: string | null; main: number | null; prices: Map<number, number | null> };

export interface RegionalFile {
  region: string;
  /** The file's currency: the one its prices are in (every entry's price_overview.currency agrees, or the commonest). */
  currency: string | null;
  apps: Map<number, RegionalApp>;
  skipped: ImportProblemList<ImportSkip>;
}

/** Reads a regional file (fetched with cc=kz, ...) as it arrives: each app's prices there, in the file's currency. */
export async function readRegionalAppdetails(source: ImportSource, region: string): Promise<RegionalFile> {
  const reader = new RegionalReader(region);
  await feed(source, reader);
  return reader.result();
}

/** `readRegionalAppdetails` of a text in hand. */
export function parseRegionalAppdetails(text: string, region: string): RegionalFile {
  const reader = new RegionalReader(region);
  reader.push(text);
  reader.end();
  return reader.result();
}

class RegionalReader {
  private readonly apps = new Map<number, RegionalApp>();
  private readonly skipped = new ImportProblemTally<ImportSkip>();
  private readonly currencies = new Map<string, number>();
  private readonly documents: DocumentReader;

  constructor(private readonly region: string) {
    this.documents = new DocumentReader((where, value) => this.document(where, value), this.skipped, region);
  }

  push(chunk: Uint8Array | string): void {
    this.documents.push(chunk);
  }

  end(): void {
    this.documents.end();
  }

  private document(where: ImportEntry, value: unknown): void {
    const { region, apps, skipped, currencies } = this;
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      skipped.add({ entry: where, region, reason: "not_keyed_by_app_id", details: {} });
      return;
    }
    for (const [key, entry] of Object.entries(value)) {
      const outer = entrySchema.safeParse(entry);
      if (!outer.success || !/^\d{1,10}$/.test(key)) {
        skipped.add({ entry: { app: key }, region, reason: "regional_invalid_entry", details: {} });
        continue;
      }
      // The store answers success: false for an app it does not sell in the region.
      if (!outer.data.success) {
        apps.set(Number(key), { restricted: true });
        continue;
      }
      const data = appdetailsDataSchema.safeParse(outer.data.data);
      if (!data.success) {
        skipped.add({ entry: { app: key }, region, ...dataRefusal(data.error) } as ImportSkip);
        continue;
      }
      const d = data.data;
      if (d.price_overview) currencies.set(d.price_overview.currency, (currencies.get(d.price_overview.currency) ?? 0) + 1);
      const prices = new Map<number, number | null>();
      for (const sub of d.package_groups.flatMap((g) => g.subs))
        prices.set(sub.packageid, sub.is_free_license || !sub.price_in_cents_with_discount ? null : sub.price_in_cents_with_discount);
      apps.set(d.steam_appid, {
        restricted: false,
        currency: d.price_overview?.currency ?? null,
        main: d.price_overview?.final || null,
        prices,
      });
    }
  }

  result(): RegionalFile {
    const { region } = this;
    const ranked = [...this.currencies].sort((a, b) => b[1] - a[1]);
    if (ranked.length > 1)
      this.skipped.add({
        entry: { file: true },
        region,
        reason: "regional_mixed_currencies",
        details: { currencies: ranked.map(([c]) => c).join(", "), used: ranked[0]![0] },
      });
    return { region, currency: ranked[0]?.[0] ?? null, apps: this.apps, skipped: this.skipped };
  }
}

/** A package's offers in the regions whose files name its app (other regions' stored offers stay). */
function regionPricesOf(appId: number, p: PackageInput, files: readonly RegionalFile[]): RegionPriceInput[] | undefined {
  const rows: RegionPriceInput[] = [];
  for (const { region, currency, apps } of files) {
    const app = apps.get(appId);
    // An entry priced in another currency than the file's was reported when the file was read.
    if (!app || currency === null || (!app.restricted && app.currency !== null && app.currency !== currency)) continue;
    const amount = app.restricted ? null : (app.prices.get(p.packageId) ?? (p.isMain ? app.main : null));
    rows.push(amount ? { region, currency, amount, restricted: false } : { region, currency, amount: null, restricted: true });
  }
  return files.length === 0 ? undefined : rows;
}

const LOOKUP_CHUNK = 5000;

/**
 * Writes the file's games. A game already in the catalog keeps its place (sort rank), its curated
 * lists, its Russian title, its alternative titles and its gift regions; new games go after the last one.
 * Every game gets the known alternative names for its app id and its title's abbreviation (upsertGames).
 */
export async function importAppdetails(db: DbExecutor, file: string | ParsedAppdetails, opts: ImportOptions = {}): Promise<ImportSummary> {
  const parsed = typeof file === "string" ? parseAppdetails(file, opts) : file;
  const regional = opts.regional ?? [];
  const skipped = new ImportProblemTally<ImportSkip>();
  const warnings = new ImportProblemTally<ImportWarning>();
  skipped.addAll(parsed.skipped);
  warnings.addAll(parsed.warnings);
  for (const file of regional) {
    skipped.addAll(file.skipped);
    if (file.currency === null) warnings.add({ reason: "regional_no_currency", details: { region: file.region } });
  }
  const ids = parsed.games.map((g) => g.appId);
  const existing = new Map<
    number,
    { titleRu: string | null; altTitles: string[]; featured: string[]; sortRank: number; giftRegions: string[] }
  >();
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .select({
        appId: games.appId,
        titleRu: games.titleRu,
        altTitles: games.altTitles,
        featured: games.featured,
        sortRank: games.sortRank,
        giftRegions: games.giftRegions,
      })
      .from(games)
      .where(inArray(games.appId, ids.slice(i, i + LOOKUP_CHUNK)));
    for (const row of rows) existing.set(row.appId, row);
  }
  const [last] = await db.select({ rank: sql<number>`coalesce(max(${games.sortRank}), 0)::int` }).from(games);
  let nextRank = last?.rank ?? 0;
  // One copy of each game, its packages with their regional prices: the parsed games stay the caller's.
  const inputs: GameInput[] = parsed.games.map(({ packages, ...game }) => {
    const known = existing.get(game.appId);
    const withRegions = { ...game, packages: packages.map((p) => ({ ...p, regionPrices: regionPricesOf(game.appId, p, regional) })) };
    if (!known) return { ...withRegions, featured: [], sortRank: ++nextRank };
    return {
      ...withRegions,
      titleRu: known.titleRu,
      altTitles: known.altTitles,
      featured: known.featured as GameInput["featured"],
      sortRank: known.sortRank,
      giftRegions: known.giftRegions,
    };
  });
  const refused = opts.batches
    ? await upsertInBatches(db, inputs, opts.batches, skipped)
    : (await upsertGames(db, inputs), new Set<number>());
  if (opts.rates?.length) await upsertCurrencyRates(db, opts.rates);
  await refreshCatalogCounts(db);
  const written = inputs.filter((game) => !refused.has(game.appId));
  const updated = written.filter((game) => existing.has(game.appId)).length;
  return { imported: written.length - updated, updated, skipped, warnings };
}

async function upsertInBatches(
  db: DbExecutor,
  inputs: readonly GameInput[],
  { size, onProgress }: NonNullable<ImportOptions["batches"]>,
  skipped: ImportProblemTally<ImportSkip>,
): Promise<Set<number>> {
  const refused = new Set<number>();
  for (let start = 0; start < inputs.length; start += size) {
    const batch = inputs.slice(start, start + size);
    try {
      await upsertGames(db, batch);
    } catch {
      for (const game of batch) {
        try {
          await upsertGames(db, [game]);
        } catch (err) {
          refused.add(game.appId);
          skipped.add({ entry: { app: String(game.appId) }, reason: "database_refused", details: { rule: databaseRule(err) } });
        }
      }
    }
    await onProgress(Math.min(start + size, inputs.length), inputs.length);
  }
  return refused;
}

/** Which rule of the database the game broke: the constraint's name, else the SQLSTATE. */
function databaseRule(err: unknown): string {
  const cause = (err instanceof Error && err.cause instanceof Error ? err.cause : err) as { constraint?: unknown; code?: unknown };
  if (typeof cause?.constraint === "string" && cause.constraint) return cause.constraint.slice(0, 120);
  return typeof cause?.code === "string" ? `SQLSTATE ${cause.code}` : "unknown";
}
