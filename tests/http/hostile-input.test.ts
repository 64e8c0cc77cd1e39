// Property-based: whatever a client throws at an endpoint, the answer is never a 5xx, every error
// has the contract's `{code, message}` shape, and a rejected request writes nothing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { api, appQuery } from "./support";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

const validGift = {
  platform: "store-gift",
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "gamer@example.com",
  fee: "excluded",
};
const validGear = {
  account: "76561198000000001",
  platform: "730",
  item: "sticker-capsule",
  email: "gamer@example.com",
  additionalFields: { tradeLink: "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12" },
};

/** Strings a hostile client likes: any code points, control characters, lone surrogates, SQL and path tricks. */
const nastyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 64 }),
  fc.string({ unit: "grapheme", maxLength: 64 }),
  fc.constantFrom("", " ", "\u0000", "\ud800", "'; DROP TABLE intents; --", "../../etc/passwd", "%00", "NaN", "1e309", "-0", "９９"),
  fc.string({ maxLength: 5000 }),
);
const hugeNumber = fc.oneof(
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 2 ** 31, -(2 ** 31) - 1, 0.1, -1),
  fc.bigInt().map((n) => n.toString()),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 4 }), nastyString, hugeNumber, fc.constant(null));

/** A deeply nested value of the given depth, e.g. [[[...]]] or {"a":{"a":...}}. */
function deepRaw(depth: number, kind: "array" | "object"): string {
  return kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** A valid body with one field (possibly nested) replaced by an arbitrary value or removed. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const paths: string[][] = [];
  const walk = (obj: Record<string, unknown>, prefix: string[]) => {
    for (const [key, value] of Object.entries(obj)) {
      paths.push([...prefix, key]);
      if (value && typeof value === "object") walk(value as Record<string, unknown>, [...prefix, key]);
    }
  };
  walk(valid, []);
  return fc.tuple(fc.constantFrom(...paths), fc.option(anyValue, { nil: undefined })).map(([path, value]) => {
    const copy = structuredClone(valid) as Record<string, unknown>;
    let target = copy;
    for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
    if (value === undefined) delete target[path.at(-1)!];
    else target[path.at(-1)!] = value;
    return copy;
  });
}

function expectErrorShape(res: { status: number; body: unknown }, context: string): void {
  expect(res.status, context).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body, context).toMatchObject({ code: res.status, message: expect.any(String) });
    expect((res.body as { message: string }).message.length, context).toBeGreaterThan(0);
  }
}

async function writes(): Promise<{ intents: number; promoUses: number; stock: number }> {
  const [row] = await appQuery<{ intents: number; promo_uses: number; stock: number }>(
    `SELECT (SELECT count(*)::int FROM intents) AS intents,
            (SELECT coalesce(sum(uses), 0)::int FROM promo_codes) AS promo_uses,
            (SELECT coalesce(sum(stock), 0)::int FROM gear_items) AS stock`,
  );
  return { intents: row!.intents, promoUses: row!.promo_uses, stock: row!.stock };
}

/** Sends every generated body and checks that only the 201s wrote anything (one intent each). */
async function postProperty(path: string, body: fc.Arbitrary<{ raw: string; contentType?: string }>): Promise<void> {
  const before = await writes();
  let created = 0;
  await fc.assert(
    fc.asyncProperty(body, async ({ raw, contentType }) => {
      const res = await api(path, { rawBody: raw, method: "POST", headers: { "content-type": contentType ?? "application/json" } });
      expectErrorShape(res, `POST ${path} ${raw.slice(0, 200)}`);
      if (res.status === 201) created += 1;
      else expect(res.status, raw.slice(0, 200)).not.toBe(200);
    }),
    { numRuns: RUNS },
  );
  const after = await writes();
  expect(after.intents - before.intents).toBe(created);
  expect(after.stock).toBe(before.stock);
}

const asJson = (value: unknown) => ({ raw: JSON.stringify(value) ?? "null" });

describe.each([
  ["/api/v1/gifts/verify", validGift],
  ["/api/v1/gear", validGear],
])("POST %s under hostile input", (path, valid) => {
  it("arbitrary JSON values", () => postProperty(path, anyValue.map(asJson)));

  it("a valid body with one field replaced or removed", () => postProperty(path, mutated(valid).map(asJson)));

  it("arbitrary bytes as the body, with and without a JSON content type", () =>
    postProperty(
      path,
      fc.record({
        raw: fc.oneof(fc.string({ unit: "binary", maxLength: 300 }), fc.constantFrom("{", "[", '{"a":', "\ufeff{}", "nul", "{}{}")),
        contentType: fc.constantFrom("application/json", "text/plain", "application/json; charset=latin1", "multipart/form-data", ""),
      }),
    ));

  it("deep nesting and huge documents", () =>
    postProperty(
      path,
      fc.oneof(
        fc
          .tuple(fc.integer({ min: 100, max: 100_000 }), fc.constantFrom("array" as const, "object" as const))
          .map(([depth, kind]) => ({ raw: deepRaw(depth, kind) })),
        fc.integer({ min: 60_000, max: 200_000 }).map((n) => ({ raw: JSON.stringify({ ...valid, email: "x".repeat(n) }) })),
      ),
    ));
});

describe("GET endpoints under hostile input", () => {
  const query = fc.dictionary(
    fc.constantFrom("genre", "category", "search", "page", "limit", "platform", "q", "utm_source", "__proto__", "constructor"),
    fc.oneof(nastyString, hugeNumber.map(String)),
    { maxKeys: 4 },
  );

  it.each(["/api/v1/gifts/catalog", "/api/v1/gear/items"])("%s with arbitrary query parameters", async (path) => {
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const search = Object.entries(params)
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v).replace(/[\ud800-\udfff]/g, "?"))}`)
          .join("&");
        const res = await api(`${path}?${search}`);
        expectErrorShape(res, `${path}?${search}`);
      }),
      { numRuns: RUNS },
    );
  });

  it("game details with arbitrary path segments", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nastyString, hugeNumber.map(String)), async (segment) => {
        const encoded = encodeURIComponent(segment.replace(/[\ud800-\udfff]/g, "?"));
        if (encoded === "" || encoded === "." || encoded === "..") return;
        const res = await api(`/api/v1/gifts/games/${encoded}`);
        expectErrorShape(res, `/api/v1/gifts/games/${encoded}`);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("what the properties found", () => {
  it.each([
    ["POST", "/api/v1/gear", { ...validGear, item: "sticker\u0000capsule" }, "item must not contain the NUL character (U+0000)"],
    [
      "POST",
      "/api/v1/gifts/verify",
      { ...validGift, target: { ...validGift.target, region: "R\u0000U" } },
      "target.region must not contain the NUL character (U+0000)",
    ],
    ["GET", "/api/v1/gifts/catalog?genre=%00", undefined, "genre must not contain the NUL character (U+0000)"],
    ["GET", "/api/v1/gifts/catalog?search=a%00b", undefined, "search must not contain the NUL character (U+0000)"],
    ["GET", "/api/v1/gear/items?platform=2147483648", undefined, "platform must be the game's appId (a positive integer)"],
    ["GET", "/api/v1/gifts/games/2147483648", undefined, "game 2147483648 not found"],
  ])("%s %s is refused by name", async (method, path, body, message) => {
    const res = await api(path, { method, body });
    expect(res.body).toMatchObject({ code: message.startsWith("game") ? 404 : 400, message });
  });

  it.each([
    ["/api/v1/gear", deepRaw(33, "array")],
    ["/api/v1/gifts/verify", deepRaw(5000, "object")],
  ])("POST %s with a body nested too deeply is refused", async (path, rawBody) => {
    const res = await api(path, { method: "POST", rawBody, headers: { "content-type": "application/json" } });
    expect(res.body).toMatchObject({ code: 400, message: "the request body nests more than 32 levels deep" });
  });
});
