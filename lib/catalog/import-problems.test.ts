import { describe, expect, it } from "vitest";
import { messages } from "@/lib/i18n/messages";
import {
  IMPORT_SKIP_REASONS,
  IMPORT_WARNING_REASONS,
  importEntryText,
  importSkipText,
  importWarningText,
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
  for (const text of [...Object.values(texts.skips), ...Object.values(texts.warnings), texts.entries.line]) expect(text).toMatch(/[а-яё]/i);
});
