import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importAppdetails, parseRegionalAppdetails } from "@/lib/catalog/import-appdetails";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

const FIXTURE = path.resolve(__dirname, "../fixtures/appdetails-sample.json");

type Entry = {
  success: boolean;
  data?: Record<string, unknown> & { price_overview?: Record<string, unknown>; package_groups?: { subs: Record<string, unknown>[] }[] };
};

/** The sample as the store would answer with another `cc=`: prices in `currency` at `factor` per kopeck. */
function regionalFile(sample: Record<string, Entry>, currency: string, factor: number, notSold: string[]): string {
  const out: Record<string, Entry> = {};
  for (const [key, entry] of Object.entries(sample)) {
    if (notSold.includes(key) || !entry.data) {
      out[key] = { success: false };
      continue;
    }
    const data = structuredClone(entry.data);
    if (data.price_overview)
      data.price_overview = {
        ...data.price_overview,
        currency,
        initial: Math.round(Number(data.price_overview.initial) * factor),
        final: Math.round(Number(data.price_overview.final) * factor),
      };
    for (const group of data.package_groups ?? [])
      for (const sub of group.subs)
        if (typeof sub.price_in_cents_with_discount === "number")
          sub.price_in_cents_with_discount = Math.round(sub.price_in_cents_with_discount * factor);
    out[key] = { success: true, data };
  }
  return JSON.stringify(out);
}

describe("importing regional appdetails files", () => {
  let t: TestDatabase;
  let text: string;
  let sample: Record<string, Entry>;

  beforeAll(async () => {
    t = await createTestDatabase();
    text = await fs.readFile(FIXTURE, "utf8");
    sample = JSON.parse(text) as Record<string, Entry>;
  });

  afterAll(() => t?.close());

  const offers = async () =>
    (
      await t.pool.query(
        `SELECT p.app_id, rp.package_id, rp.region, rp.currency, rp.amount, rp.restricted
         FROM package_region_prices rp JOIN packages p USING (package_id)
         WHERE p.app_id IN (1174180, 1086940) ORDER BY p.app_id, rp.package_id, rp.region`,
      )
    ).rows;

  it("reads each file's currency and prices, and restricts what a region does not sell", async () => {
    await importAppdetails(t.db, text, {
      defaultGiftRegions: ["RU", "KZ", "TR"],
      regional: [
        parseRegionalAppdetails(regionalFile(sample, "KZT", 6.2, ["1086940"]), "KZ"),
        parseRegionalAppdetails(regionalFile(sample, "USD", 0.0123, []), "TR"),
      ],
    });
    expect(await offers()).toEqual([
      { app_id: 1086940, package_id: 330695, region: "KZ", currency: "KZT", amount: null, restricted: true },
      { app_id: 1086940, package_id: 330695, region: "TR", currency: "USD", amount: 2459, restricted: false },
      { app_id: 1086940, package_id: 835215, region: "KZ", currency: "KZT", amount: null, restricted: true },
      { app_id: 1086940, package_id: 835215, region: "TR", currency: "USD", amount: 2459, restricted: false },
      { app_id: 1174180, package_id: 218103, region: "KZ", currency: "KZT", amount: 982080, restricted: false },
      { app_id: 1174180, package_id: 218103, region: "TR", currency: "USD", amount: 1948, restricted: false },
    ]);
    // At the demo's rates (0.162 RUB per tenge, 81.5 per dollar) both are within the gap where sold.
    const { rows } = await t.pool.query(`SELECT region, app_id FROM giftable_games WHERE app_id IN (1174180, 1086940) ORDER BY 1, 2`);
    expect(rows).toEqual([
      { region: "KZ", app_id: 1174180 },
      { region: "RU", app_id: 1086940 },
      { region: "RU", app_id: 1174180 },
      { region: "TR", app_id: 1086940 },
      { region: "TR", app_id: 1174180 },
    ]);
  });

  it("leaves other regions' offers alone when a later import brings only some regions", async () => {
    await importAppdetails(t.db, text, { regional: [parseRegionalAppdetails(regionalFile(sample, "USD", 0.0125, ["1174180"]), "TR")] });
    const rows = await offers();
    expect(rows.filter((r) => r.region === "KZ")).toHaveLength(3);
    expect(rows.find((r) => r.app_id === 1174180 && r.region === "TR")).toMatchObject({ restricted: true, amount: null });
    expect(rows.find((r) => r.package_id === 330695 && r.region === "TR")).toMatchObject({ amount: 2499, restricted: false });
  });
});
