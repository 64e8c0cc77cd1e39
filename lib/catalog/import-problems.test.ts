import { describe, expect, it } from "vitest";
import { messages } from "@/lib/i18n/messages";
import {
  IMPORT_PROBLEMS_SHOWN,
  IMPORT_SKIP_REASONS,
  IMPORT_WARNING_REASONS,
  importEntryText,
  importSkipText,
  importWarningText,
  ImportProblemTally,
  type ImportSkip,
  type ImportWarning,
} from "./import-problems";

// Every reason an import can give is worded in both languages, and every detail it names fills its
// text: the page never shows a code, an English sentence in the Russian UI, or a bare {placeholder}.

const skips: { [R in ImportSkip["reason"]]: Extract<ImportSkip, { reason: R }>["details"] } = {
  not_json: {},
  not_keyed_by_app_id: {},
  invalid_entry: { fields: "success" },
  store_returned_nothing: {},
  not_a_game: { type: "dlc" },
  invalid_data: { fields: "name, steam_appid" },
  price_too_high: { field: "price_overview.initial", maxRub: 1_000_000 },
  currency_not_rub: { currency: "USD" },
  superseded: { appId: 440 },
  packages_taken: {},
  database_refused: { rule: "packages_price_bounded" },
  regional_invalid_entry: {},
  regional_mixed_currencies: { currencies: "KZT, USD", used: "KZT" },
};

const warnings: { [R in ImportWarning["reason"]]: Extract<ImportWarning, { reason: R }>["details"] } = {
  package_taken: { appId: 1086941, packageId: 7, owner: 1086940 },
  cover_not_https: { appId: 440 },
  cover_host_not_allowed: { appId: 440, host: "img.example.net" },
  regional_no_currency: { region: "KZ" },
};

describe.each(["ru", "en"] as const)("catalog import problems in %s", (locale) => {
  const texts = messages[locale].adminCatalog.catalog.import.problems;

  it("word every reason the import gives, each detail filled in", () => {
    expect(Object.keys(texts.skips).sort()).toEqual([...IMPORT_SKIP_REASONS].sort());
    expect(Object.keys(texts.warnings).sort()).toEqual([...IMPORT_WARNING_REASONS].sort());
    expect(Object.keys(skips).sort()).toEqual([...IMPORT_SKIP_REASONS].sort());
    for (const reason of IMPORT_SKIP_REASONS) {
      const text = importSkipText({ entry: { app: "1" }, reason, details: skips[reason] } as ImportSkip, texts);
      expect(text, reason).not.toMatch(/[{}]/);
      for (const value of Object.values(skips[reason])) expect(text, reason).toContain(String(value));
    }
    for (const reason of IMPORT_WARNING_REASONS) {
      const text = importWarningText({ reason, details: warnings[reason] } as ImportWarning, texts);
      expect(text, reason).not.toMatch(/[{}]/);
      for (const value of Object.values(warnings[reason])) expect(text, reason).toContain(String(value));
    }
  });

  it("name every reason in a few words, for the counts of a long list", () => {
    expect(Object.keys(texts.skipKinds).sort()).toEqual([...IMPORT_SKIP_REASONS].sort());
    expect(Object.keys(texts.warningKinds).sort()).toEqual([...IMPORT_WARNING_REASONS].sort());
    for (const kind of [...Object.values(texts.skipKinds), ...Object.values(texts.warningKinds)]) expect(kind).not.toMatch(/[{}]/);
  });

  it("name where in the file each entry was", () => {
    expect(importEntryText({ entry: { app: "620" } }, texts)).toBe("620");
    for (const entry of [{ line: 2 }, { item: 3 }, { document: true as const }, { file: true as const }]) {
      expect(importEntryText({ entry }, texts)).not.toMatch(/[{}]/);
    }
    expect(importEntryText({ entry: { line: 4 }, region: "KZ" }, texts)).toMatch(/^KZ: .*4/);
  });
});

it("Russian texts are Russian", () => {
  const texts = messages.ru.adminCatalog.catalog.import.problems;
  for (const text of [
    ...Object.values(texts.skips),
    ...Object.values(texts.warnings),
    texts.entries.line,
    ...Object.values(texts.skipKinds),
  ])
    expect(text).toMatch(/[а-яё]/i);
});

describe("a tally of problems", () => {
  const notJson = (line: number): ImportSkip => ({ entry: { line }, reason: "not_json", details: {} });

  it("keeps the first few as they came and counts every one by reason", () => {
    const tally = new ImportProblemTally<ImportSkip>();
    for (let line = 1; line <= 1000; line++) tally.add(notJson(line));
    tally.add({ entry: { app: "7" }, reason: "superseded", details: { appId: 7 } });
    expect(tally.total).toBe(1001);
    expect(tally.byReason).toEqual({ not_json: 1000, superseded: 1 });
    expect(tally.first).toEqual(Array.from({ length: IMPORT_PROBLEMS_SHOWN }, (_, i) => notJson(i + 1)));
    expect(JSON.parse(JSON.stringify(tally))).toEqual({ total: 1001, byReason: { not_json: 1000, superseded: 1 }, first: tally.first });
  });

  it("adds another list after its own, keeping no more than it shows", () => {
    const tally = new ImportProblemTally<ImportSkip>();
    for (let line = 1; line <= 15; line++) tally.add(notJson(line));
    tally.addAll({ total: 30, byReason: { not_json: 30 }, first: Array.from({ length: 20 }, (_, i) => notJson(100 + i)) });
    expect(tally.total).toBe(45);
    expect(tally.byReason).toEqual({ not_json: 45 });
    expect(tally.first.map((p) => ("line" in p.entry ? p.entry.line : 0))).toEqual([
      ...Array.from({ length: 15 }, (_, i) => i + 1),
      100,
      101,
      102,
      103,
      104,
    ]);
  });
});
