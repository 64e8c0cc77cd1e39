import { format } from "@/lib/i18n/format";

// What a catalog import says about a file: each entry it left out and each warning, by reason with
// details, never as English sentences. The back office words them in the viewer's language
// (adminCatalog.catalog.import in lib/i18n/messages), the CLI in English. Pure: safe in the browser.

/** Why an entry of the file was left out, and what each reason names. */
interface SkipDetails {
  /** A line of a JSON-lines file that is not JSON. */
  not_json: Record<string, never>;
  /** A document that is not `{ "<appid>": {...} }`. */
  not_keyed_by_app_id: Record<string, never>;
  /** Not `{ success, data }`; `fields` are the JSON paths at fault. */
  invalid_entry: { fields: string };
  /** `success: false`: the store answered nothing for the app. */
  store_returned_nothing: Record<string, never>;
  not_a_game: { type: string };
  invalid_data: { fields: string };
  /** A price above what the store sells at (MAX_PRICE_KOPECKS), in roubles. */
  price_too_high: { field: string; maxRub: number };
  /** The store file must be fetched with cc=ru. */
  currency_not_rub: { currency: string };
  /** A later entry of the file is for the same app. */
  superseded: { appId: number };
  /** Every package of the app is another app's in this file. */
  packages_taken: Record<string, never>;
  /** The database refused the game; `rule` is the constraint (or SQLSTATE) it broke. */
  database_refused: { rule: string };
  /** A regional file's entry that is not `{ success, data }` under an app id. */
  regional_invalid_entry: Record<string, never>;
  /** A regional file priced in several currencies: only `used` is read. */
  regional_mixed_currencies: { currencies: string; used: string };
}

/** What the import did that the person should know, though the game was written. */
interface WarningDetails {
  /** A package named by two apps of the file stays with the first. */
  package_taken: { appId: number; packageId: number; owner: number };
  /** header_image is not an absolute https URL: left out, the generated cover is shown. */
  cover_not_https: { appId: number };
  /** header_image's host is not in IMAGE_HOSTS: kept, but pages show it only once the host is added. */
  cover_host_not_allowed: { appId: number; host: string };
  /** A regional file without any price: its regional prices are left as they were. */
  regional_no_currency: { region: string };
}

export type ImportSkipReason = keyof SkipDetails;
export type ImportWarningReason = keyof WarningDetails;

export const IMPORT_SKIP_REASONS = [
  "not_json",
  "not_keyed_by_app_id",
  "invalid_entry",
  "store_returned_nothing",
  "not_a_game",
  "invalid_data",
  "price_too_high",
  "currency_not_rub",
  "superseded",
  "packages_taken",
  "database_refused",
  "regional_invalid_entry",
  "regional_mixed_currencies",
] as const satisfies readonly ImportSkipReason[];

export const IMPORT_WARNING_REASONS = [
  "package_taken",
  "cover_not_https",
  "cover_host_not_allowed",
  "regional_no_currency",
] as const satisfies readonly ImportWarningReason[];

/** Where in the file: the app id it was keyed by, a line or array item, the whole document, or a regional file. */
export type ImportEntry = { app: string } | { line: number } | { item: number } | { document: true } | { file: true };

export type ImportSkip = {
  [R in ImportSkipReason]: { entry: ImportEntry; region?: string; reason: R; details: SkipDetails[R] };
}[ImportSkipReason];

export type ImportWarning = { [R in ImportWarningReason]: { reason: R; details: WarningDetails[R] } }[ImportWarningReason];

/** How many problems of each list an import keeps to show, with their place in the file. */
export const IMPORT_PROBLEMS_SHOWN = 20;

/**
 * The problems of one import, bounded whatever the file: the first IMPORT_PROBLEMS_SHOWN as they
 * came, and how many there were in all and of each reason. A file of a million bad lines is a
 * million in `total`, not a million entries.
 */
export interface ImportProblemList<P extends { reason: string }> {
  total: number;
  byReason: Partial<Record<P["reason"], number>>;
  first: P[];
}

/** Collects an ImportProblemList (and is one: it serialises as its three fields). */
export class ImportProblemTally<P extends { reason: string }> implements ImportProblemList<P> {
  total = 0;
  readonly byReason: Partial<Record<P["reason"], number>> = {};
  readonly first: P[] = [];

  add(problem: P): void {
    this.count(problem.reason as P["reason"], 1);
    if (this.first.length < IMPORT_PROBLEMS_SHOWN) this.first.push(problem);
  }

  /** Another list's problems after this one's. */
  addAll(list: ImportProblemList<P>): void {
    for (const [reason, n] of Object.entries(list.byReason) as [P["reason"], number][]) this.count(reason, n);
    this.first.push(...list.first.slice(0, IMPORT_PROBLEMS_SHOWN - this.first.length));
  }

  private count(reason: P["reason"], n: number): void {
    this.total += n;
    this.byReason[reason] = (this.byReason[reason] ?? 0) + n;
  }
}

/** The texts of one language (adminCatalog.catalog.import.problems). */
export interface ImportProblemTexts {
  entries: { line: string; item: string; document: string; file: string; region: string };
  skips: Record<ImportSkipReason, string>;
  warnings: Record<ImportWarningReason, string>;
  /** Each reason in a few words, for the counts of a list longer than what it shows. */
  skipKinds: Record<ImportSkipReason, string>;
  warningKinds: Record<ImportWarningReason, string>;
}

export function importEntryText(skip: Pick<ImportSkip, "entry" | "region">, texts: ImportProblemTexts): string {
  const { entry } = skip;
  const where =
    "app" in entry
      ? entry.app
      : "line" in entry
        ? format(texts.entries.line, { n: entry.line })
        : "item" in entry
          ? format(texts.entries.item, { n: entry.item })
          : "document" in entry
            ? texts.entries.document
            : texts.entries.file;
  return skip.region ? format(texts.entries.region, { region: skip.region, where }) : where;
}

export function importSkipText(skip: ImportSkip, texts: ImportProblemTexts): string {
  return format(texts.skips[skip.reason], skip.details);
}

export function importWarningText(warning: ImportWarning, texts: ImportProblemTexts): string {
  return format(texts.warnings[warning.reason], warning.details);
}
