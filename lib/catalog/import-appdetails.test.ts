import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packageTitle, parseAppdetails, parseRegionalAppdetails, parseReleaseDate, plainText, readAppdetails } from "./import-appdetails";
import { IMPORT_PROBLEMS_SHOWN } from "./import-problems";

const fixture = fs.readFileSync(path.resolve(__dirname, "../../tests/fixtures/appdetails-sample.json"), "utf8");

function game(appId: number, text = fixture) {
  const found = parseAppdetails(text).games.find((g) => g.appId === appId);
  if (!found) throw new Error(`app ${appId} was not imported`);
  return found;
}

describe("parseAppdetails on the sample file", () => {
  const parsed = parseAppdetails(fixture, { defaultGiftRegions: ["RU", "KZ"] });

  it("keeps the games and skips failures and non-games with a reason", () => {
    expect(parsed.games.map((g) => g.appId).sort((a, b) => a - b)).toEqual([440, 1086940, 1174180, 3164330]);
    expect(parsed.skipped.first).toEqual(
      expect.arrayContaining([
        { entry: { app: "2138330" }, reason: "not_a_game", details: { type: "dlc" } },
        { entry: { app: "999999" }, reason: "store_returned_nothing", details: {} },
      ]),
    );
    expect(parsed.skipped.total).toBe(2);
    expect(parsed.warnings.first).toEqual([]);
  });

  it("maps a discounted game with its price from price_overview and one package from `packages`", () => {
    expect(game(1174180)).toEqual({
      appId: 1174180,
      title: "Red Dead Redemption 2",
      titleRu: null,
      shortDescription:
        "Red Dead Redemption 2 — эпическая история о жизни в беспощадном сердце Америки. Обладатель более 175 наград «Игра года».",
      shortDescriptionEn: null,
      headerImage: "https://shared.akamai.steamstatic.com/store_item_assets/steam/apps/1174180/header.jpg?t=1720558643",
      genres: ["Action", "Adventure"],
      comingSoon: false,
      releaseDate: "2019-12-05",
      giftRegions: ["RU"],
      packages: [
        { packageId: 218103, title: "Red Dead Redemption 2", isMain: true, priceInitial: 479900, priceFinal: 158400, discountPercent: 67 },
      ],
    });
  });

  it("gives new games the default gift regions it was asked for", () => {
    expect(parsed.games.every((g) => g.giftRegions.join() === "RU,KZ")).toBe(true);
  });

  it("maps a free game to a main package with no price", () => {
    const tf2 = game(440);
    expect(tf2.genres).toEqual(["Action", "Free to Play"]);
    expect(tf2.shortDescriptionEn).toBe(tf2.shortDescription);
    expect(tf2.packages).toEqual([
      { packageId: 197845, title: "Team Fortress 2", isMain: true, priceInitial: null, priceFinal: null, discountPercent: 0 },
    ]);
  });

  it("maps a coming-soon game without packages to a made-up main package id", () => {
    const outpost = game(3164330);
    expect(outpost.comingSoon).toBe(true);
    expect(outpost.releaseDate).toBeNull();
    expect(outpost.genres).toEqual(["Simulation", "Strategy", "Early Access"]);
    expect(outpost.packages).toEqual([
      { packageId: 31643301, title: "Starfall Outpost", isMain: true, priceInitial: null, priceFinal: null, discountPercent: 0 },
    ]);
  });

  it("takes packages from package_groups, the main one matching price_overview", () => {
    const bg3 = game(1086940);
    expect(
      bg3.shortDescription.startsWith("Baldur's Gate 3 is a story-rich, party-based RPG set in the universe of Dungeons & Dragons"),
    ).toBe(true);
    expect(bg3.packages).toEqual([
      { packageId: 330695, title: "Baldur's Gate 3", isMain: true, priceInitial: 199900, priceFinal: 199900, discountPercent: 0 },
      {
        packageId: 835215,
        title: "Baldur's Gate 3 - Digital Deluxe Edition",
        isMain: false,
        priceInitial: 249900,
        priceFinal: 199920,
        discountPercent: 20,
      },
    ]);
  });
});

describe("parseAppdetails input shapes and bad entries", () => {
  const entries = Object.entries(JSON.parse(fixture) as Record<string, unknown>);

  it("accepts an array of response objects and JSON lines", () => {
    const asArray = JSON.stringify(entries.map(([key, value]) => ({ [key]: value })));
    const asLines = entries.map(([key, value]) => JSON.stringify({ [key]: value })).join("\n");
    const expected = parseAppdetails(fixture).games;
    expect(parseAppdetails(asArray).games).toEqual(expected);
    expect(parseAppdetails(asLines).games).toEqual(expected);
  });

  it("reports a broken line or entry and keeps going", () => {
    const good = JSON.stringify({ "440": JSON.parse(fixture)["440"] });
    const wrongCurrency = JSON.stringify({
      "10": {
        success: true,
        data: {
          type: "game",
          name: "Counter-Strike",
          steam_appid: 10,
          price_overview: { currency: "USD", initial: 999, final: 999, discount_percent: 0 },
        },
      },
    });
    const parsed = parseAppdetails([good, "{not json", wrongCurrency, "[1]", JSON.stringify({ "7": { data: {} } })].join("\n"));
    expect(parsed.games.map((g) => g.appId)).toEqual([440]);
    expect(parsed.skipped.first).toEqual([
      { entry: { line: 2 }, reason: "not_json", details: {} },
      { entry: { app: "10" }, reason: "currency_not_rub", details: { currency: "USD" } },
      { entry: { line: 4 }, reason: "not_keyed_by_app_id", details: {} },
      { entry: { app: "7" }, reason: "invalid_entry", details: { fields: "success" } },
    ]);
  });

  it("refuses a price over the store's bound with a reason, rather than a 500 at checkout later", () => {
    const dear = JSON.stringify({
      "11": {
        success: true,
        data: {
          type: "game",
          name: "Too Dear",
          steam_appid: 11,
          price_overview: { currency: "RUB", initial: 2_147_483_000, final: 2_147_483_000, discount_percent: 0 },
        },
      },
    });
    const parsed = parseAppdetails(dear);
    expect(parsed.games).toEqual([]);
    expect(parsed.skipped.first).toEqual([
      { entry: { app: "11" }, reason: "price_too_high", details: { field: "price_overview.initial", maxRub: 1_000_000 } },
    ]);
  });

  it("keeps the later of two entries for one app", () => {
    const tf2 = JSON.parse(fixture)["440"];
    const renamed = { ...tf2, data: { ...tf2.data, name: "Team Fortress 2 (2026)" } };
    const parsed = parseAppdetails([JSON.stringify({ "440": tf2 }), JSON.stringify({ "440": renamed })].join("\n"));
    expect(parsed.games.map((g) => g.title)).toEqual(["Team Fortress 2 (2026)"]);
    expect(parsed.skipped.first).toEqual([{ entry: { app: "440" }, reason: "superseded", details: { appId: 440 } }]);
  });

  it("leaves a package shared by two apps with the first of them", () => {
    const bg3 = JSON.parse(fixture)["1086940"];
    const twin = { ...bg3, data: { ...bg3.data, steam_appid: 1086941, name: "Twin" } };
    const parsed = parseAppdetails(JSON.stringify({ "1086940": bg3, "1086941": twin }));
    expect(parsed.games.map((g) => g.appId)).toEqual([1086940]);
    expect(parsed.skipped.first).toEqual([{ entry: { app: "1086941" }, reason: "packages_taken", details: {} }]);
    expect(parsed.warnings.total).toBe(2);
  });

  it.each([
    ["javascript:alert(document.cookie)", "a javascript: URL"],
    ["http://shared.akamai.steamstatic.com/header.jpg", "plain http"],
    ["data:image/svg+xml,<svg onload=alert(1)>", "a data: URL"],
    ["//evil.example/x.jpg", "a protocol-relative URL"],
    ["https://", "an https URL without a host"],
    ["https://user:pw@shared.akamai.steamstatic.com/x.jpg", "an https URL with credentials"],
    ["  ", "blank text"],
  ])("drops header_image %j (%s) and reports it, keeping the game", (headerImage, _why) => {
    const tf2 = JSON.parse(fixture)["440"];
    const parsed = parseAppdetails(JSON.stringify({ "440": { ...tf2, data: { ...tf2.data, header_image: headerImage } } }));
    expect(parsed.games.map((g) => [g.appId, g.headerImage])).toEqual([[440, null]]);
    expect(parsed.warnings.first).toEqual(headerImage.trim() ? [{ reason: "cover_not_https", details: { appId: 440 } }] : []);
  });

  it("keeps an https header_image from any host, warning when the page policy (IMAGE_HOSTS) will not show it", () => {
    const tf2 = JSON.parse(fixture)["440"];
    const parsed = parseAppdetails(
      JSON.stringify({ "440": { ...tf2, data: { ...tf2.data, header_image: "https://img.example.net/440.jpg" } } }),
    );
    expect(parsed.games[0]?.headerImage).toBe("https://img.example.net/440.jpg");
    expect(parsed.warnings.first).toEqual([{ reason: "cover_host_not_allowed", details: { appId: 440, host: "img.example.net" } }]);
    expect(parseAppdetails(fixture).warnings.total).toBe(0);
  });

  it("makes inconsistent prices satisfy the database's price rule", () => {
    const base = JSON.parse(fixture)["1174180"];
    const withPrice = (price_overview: object) =>
      game(
        1174180,
        JSON.stringify({ "1174180": { ...base, data: { ...base.data, price_overview: { currency: "RUB", ...price_overview } } } }),
      ).packages[0];
    expect(withPrice({ initial: 99900, final: 49900, discount_percent: 0 })).toMatchObject({
      priceInitial: 99900,
      priceFinal: 49900,
      discountPercent: 50,
    });
    expect(withPrice({ initial: 49900, final: 49900, discount_percent: 10 })).toMatchObject({
      priceInitial: 49900,
      priceFinal: 49900,
      discountPercent: 0,
    });
    expect(withPrice({ initial: 49900, final: 0, discount_percent: 100 })).toMatchObject({
      priceInitial: null,
      priceFinal: null,
      discountPercent: 0,
    });
  });
});

describe("reading a file as a stream", () => {
  const entries = Object.entries(JSON.parse(fixture) as Record<string, unknown>);
  const line = (i: number) => JSON.stringify(Object.fromEntries([entries[i % entries.length]!]));

  /** The bytes of `text` in pieces of `size`, cut anywhere, a multi-byte character included. */
  async function* pieces(text: string, size: number): AsyncGenerator<Uint8Array> {
    const bytes = new TextEncoder().encode(text);
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }

  /** What the reader found before it read streams: the whole text parsed, else each line. */
  function wholeThenLines(text: string) {
    const documents: { where: object; value: unknown }[] = [];
    const notJson: number[] = [];
    try {
      const whole: unknown = JSON.parse(text);
      if (Array.isArray(whole)) whole.forEach((value, i) => documents.push({ where: { item: i + 1 }, value }));
      else documents.push({ where: { document: true }, value: whole });
    } catch {
      text.split(/\r?\n/).forEach((l, i) => {
        if (l.trim() === "") return;
        try {
          documents.push({ where: { line: i + 1 }, value: JSON.parse(l) });
        } catch {
          notJson.push(i + 1);
        }
      });
    }
    return { documents, notJson };
  }

  const shapes: [string, string][] = [
    ["one object", fixture],
    ["one object on one line", JSON.stringify(JSON.parse(fixture))],
    [
      "an array, pretty-printed",
      JSON.stringify(
        entries.map(([k, v]) => ({ [k]: v })),
        null,
        2,
      ),
    ],
    ["an array on one line, blank lines around", `\n\n${JSON.stringify(entries.map(([k, v]) => ({ [k]: v })))}\n\n`],
    ["JSON lines with CRLF", entries.map((_, i) => line(i)).join("\r\n")],
    ["JSON lines with junk", [line(0), "junk", "{", line(1), "[1]", "", "  ", line(2), "42"].join("\n")],
    ["a broken pretty-printed object", fixture.replace('"success"', '"success" oops')],
    ["a byte-order mark", `\ufeff${line(0)}\n${line(1)}`],
    ["Cyrillic cut mid-character", [line(1), JSON.stringify({ "7": { success: true, data: { name: "Тихая гавань" } } })].join("\n")],
  ];

  it.each(shapes)("finds in %s what parsing it whole finds, whatever the pieces it arrives in", async (_, text) => {
    const expected = parseAppdetails(text);
    for (const size of [1, 3, 64, 1 << 20]) {
      const streamed = await readAppdetails(pieces(text, size));
      expect(streamed, `pieces of ${size}`).toEqual(expected);
    }
  });

  it("finds the documents and bad lines that parsing the whole text, then each line, would find", () => {
    const kinds = ["game", "junk", "blank", "{", "[", "]", "}", "array", "pretty"] as const;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...kinds), { maxLength: 12 }), fc.boolean(), (picked, crlf) => {
        const lines = picked.map((kind, i) =>
          kind === "game"
            ? line(i)
            : kind === "junk"
              ? "not json"
              : kind === "blank"
                ? " "
                : kind === "array"
                  ? `[${line(i)}]`
                  : kind === "pretty"
                    ? JSON.stringify(JSON.parse(line(i)), null, 1)
                    : kind,
        );
        const text = lines.join(crlf ? "\r\n" : "\n");
        const reference = wholeThenLines(text);
        const parsed = parseAppdetails(text);
        const notJson = parsed.skipped.first.filter((s) => s.reason === "not_json").map((s) => ("line" in s.entry ? s.entry.line : 0));
        expect(parsed.skipped.byReason.not_json ?? 0).toBe(reference.notJson.length);
        expect(notJson).toEqual(reference.notJson.slice(0, notJson.length));
        const keyed = reference.documents.filter((d) => typeof d.value === "object" && d.value !== null && !Array.isArray(d.value));
        expect(parsed.skipped.byReason.not_keyed_by_app_id ?? 0).toBe(reference.documents.length - keyed.length);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the first problems with their lines and counts the rest, not one entry per bad line", async () => {
    async function* junk(): AsyncGenerator<Uint8Array> {
      const block = new TextEncoder().encode("x\n".repeat(50_000));
      for (let i = 0; i < 20; i++) yield block;
      yield new TextEncoder().encode(`${line(0)}\n`);
    }
    const parsed = await readAppdetails(junk());
    expect(parsed.games.map((g) => g.appId)).toEqual([440]);
    expect(parsed.skipped.total).toBe(1_000_000);
    expect(parsed.skipped.byReason).toEqual({ not_json: 1_000_000 });
    expect(parsed.skipped.first).toEqual(
      Array.from({ length: IMPORT_PROBLEMS_SHOWN }, (_, i) => ({ entry: { line: i + 1 }, reason: "not_json", details: {} })),
    );
    expect(JSON.stringify(parsed.skipped).length).toBeLessThan(2000);
  });

  it("bounds a regional file's problems the same way", () => {
    const file = parseRegionalAppdetails("nope\n".repeat(100), "KZ");
    expect(file.skipped.total).toBe(100);
    expect(file.skipped.first).toHaveLength(IMPORT_PROBLEMS_SHOWN);
    expect(file.skipped.first[0]).toEqual({ entry: { line: 1 }, region: "KZ", reason: "not_json", details: {} });
  });
});

describe("text helpers", () => {
  it.each([
    ["10 Dec, 2020", "2020-12-10"],
    ["Dec 10, 2020", "2020-12-10"],
    ["10 дек. 2020 г.", "2020-12-10"],
    ["1 мая 2024 г.", "2024-05-01"],
    ["2023-08-03", "2023-08-03"],
    ["Q1 2027", null],
    ["Coming soon", null],
    ["31 Feb, 2020", null],
  ])("parseReleaseDate(%j) is %j", (text, expected) => {
    expect(parseReleaseDate(text)).toBe(expected);
  });

  it.each([
    ["Portal 2 - 349 pуб.", "Portal 2"],
    ["Half-Life 2 - Episode One - 199 руб.", "Half-Life 2 - Episode One"],
    ["Team Fortress 2 - Free", "Team Fortress 2"],
    ['Game - <span class="discount_original_price">999 pуб.</span> 499 pуб.', "Game"],
    ["Foo - Season 2", "Foo - Season 2"],
  ])("packageTitle(%j) is %j", (text, expected) => {
    expect(packageTitle(text)).toBe(expected);
  });

  it("strips tags and decodes entities", () => {
    expect(plainText("<p>Fish &amp; chips&nbsp;&#8212;<br/>&#x2014; <i>fine</i></p>")).toBe("Fish & chips — — fine");
  });
});
