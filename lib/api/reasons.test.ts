import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Reason } from "@/lib/errors";
import { DELIVERY_FAILURES, REFUND_REASONS } from "@/lib/intents/states";
import { messages } from "@/lib/i18n/messages";
import { REASONS } from "./reasons";
import { IMPORT_SKIP_REASONS, IMPORT_WARNING_REASONS } from "@/lib/catalog/import-problems";

// The catalogue, the places that raise a reason and the storefront's texts must agree: a reason a
// service can raise with no text would show the shopper English; a catalogue reason nothing raises
// is documentation of a refusal that never happens.

const root = path.resolve(import.meta.dirname, "../..");
const CATALOGUE: Reason[] = Object.keys(REASONS) as Reason[];
/** Words that are reasons of something else: why a delivery failed, why money went back, what a catalog import left out. */
const OTHER_VOCABULARIES = new Set<string>([...DELIVERY_FAILURES, ...REFUND_REASONS, ...IMPORT_SKIP_REASONS, ...IMPORT_WARNING_REASONS]);

/** Source files that can raise a refusal: the app and its libraries, but not the catalogue, the texts, the UI or the tests. */
function raisingSources(): { file: string; text: string }[] {
  const skip = [
    /\.test\.tsx?$/,
    /^lib\/api\/reasons\.ts$/,
    /^lib\/errors\.ts$/,
    /^lib\/i18n\//,
    /^lib\/openapi\.ts$/,
    /^lib\/api\/endpoints\.ts$/,
  ];
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name) && !skip.some((re) => re.test(rel)))
        out.push({ file: rel, text: fs.readFileSync(path.join(root, rel), "utf8") });
    }
  };
  for (const dir of ["app", "lib"]) walk(dir);
  return out;
}

/** A snake_case literal that is not compared against (`=== "x"`, `isDomainError(err, "x")`): a place that raises it. */
const LITERAL = /(===\s*|!==\s*|isDomainError\([^)]*?)?"([a-z]+(?:_[a-z0-9]+)+)"/g;

function raisedReasons(): Map<string, string[]> {
  const raised = new Map<string, string[]>();
  for (const { file, text } of raisingSources()) {
    for (const match of text.matchAll(LITERAL)) {
      if (match[1]) continue;
      raised.set(match[2]!, [...(raised.get(match[2]!) ?? []), file]);
    }
  }
  return raised;
}

describe("the refusal catalogue", () => {
  it("gives every reason a text in Russian and in English", () => {
    for (const reason of CATALOGUE) {
      expect(messages.ru.errors.reasons[reason]?.trim(), `ru: ${reason}`).toBeTruthy();
      expect(messages.en.errors.reasons[reason]?.trim(), `en: ${reason}`).toBeTruthy();
    }
    expect(Object.keys(messages.ru.errors.reasons).sort()).toEqual([...CATALOGUE].sort());
  });

  it("has every reason raised somewhere in the app", () => {
    const raised = raisedReasons();
    const never = CATALOGUE.filter((reason) => !raised.has(reason));
    expect(never, "reasons in the catalogue that nothing raises").toEqual([]);
  });

  // Reasons are two words or more (`out_of_stock`), so a one-word result (`{ reason: "expired" }` of a
  // token lookup) is told from a refusal by its shape.
  it("raises no reason outside the catalogue", () => {
    const RAISE = /(?:new DomainError(?:<[^>]*>)?\(\s*|errorResponse\(\s*|reason:\s*)"([a-z]+(?:_[a-z0-9]+)+)"/g;
    const unknown = raisingSources().flatMap(({ file, text }) =>
      [...text.matchAll(RAISE)]
        .map((m) => m[1]!)
        .filter((reason) => !(reason in REASONS) && !OTHER_VOCABULARIES.has(reason))
        .map((reason) => `${reason} in ${file}`),
    );
    expect(unknown).toEqual([]);
  });

  it("is the table the README shows, reason by reason with its status", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### Refusal reasons"), readme.indexOf("### Demo data"));
    const listed = new Map<string, number>();
    for (const [, status, cells] of section.matchAll(/^\| (\d{3}) \| (.+) \|$/gm)) {
      for (const [, reason] of cells!.matchAll(/`([a-z_0-9]+)`/g)) listed.set(reason!, Number(status));
    }
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(CATALOGUE.map((r) => [r, REASONS[r].status])));
  });

  it("keeps one status per reason, a client or server error", () => {
    for (const reason of CATALOGUE) expect(REASONS[reason].status, reason).toBeGreaterThanOrEqual(400);
    for (const reason of CATALOGUE) expect(reason).toMatch(/^[a-z]+(_[a-z0-9]+)+$/);
  });
});
