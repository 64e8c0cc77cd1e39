import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { validationMessage } from "./validation";
import { catalogQuerySchema } from "./catalog";
import { allowCallbackHosts, callbackUrlSchema, isAppId } from "./common";
import { gearIntentRequestSchema } from "./gear";
import { giftVerifyRequestSchema } from "./gifts";

function messageFor(schema: z.ZodType, input: unknown): string | null {
  const result = schema.safeParse(input);
  return result.success ? null : validationMessage(result.error, input);
}

const gift = {
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "gamer@example.com",
  fee: "excluded",
};

const gear = {
  account: "76561198000000001",
  platform: "730",
  item: "ak47-redline",
  email: "gamer@example.com",
};

describe("catalogQuerySchema", () => {
  it("fills defaults and ignores unknown parameters", () => {
    expect(catalogQuerySchema.parse({ utm_source: "vk" })).toEqual({ page: 0, limit: 20, sort: "relevance", lang: "ru" });
  });

  it("treats empty parameters as absent", () => {
    expect(catalogQuerySchema.parse({ genre: "", page: "", steamCategory: "", query: "", sort: "" })).toEqual({
      page: 0,
      limit: 20,
      sort: "relevance",
      lang: "ru",
    });
  });

  it.each([
    [{ limit: "0" }, "limit must be an integer from 1 to 100"],
    [{ limit: "101" }, "limit must be an integer from 1 to 100"],
    [{ limit: "2.5" }, "limit must be an integer from 1 to 100"],
    [{ limit: "1e2" }, "limit must be an integer from 1 to 100"],
    [{ page: "-1" }, "page must be an integer from 0 to 1000000"],
    [{ page: "abc" }, "page must be an integer from 0 to 1000000"],
    [{ steamCategory: "bestsellers" }, "steamCategory must be one of: specials, coming_soon, top_sellers, new_releases"],
    [{ query: "x".repeat(201) }, "query must be 1 to 200 characters"],
    [{ genre: "g".repeat(65) }, "genre must be at most 64 characters"],
    [{ lang: "de" }, "lang must be one of: ru, en"],
    [{ sort: "cheapest" }, "sort must be one of: relevance, price, discount, newest"],
  ])("%j -> %s", (input, message) => {
    expect(messageFor(catalogQuerySchema, input)).toBe(message);
  });
});

describe("giftVerifyRequestSchema", () => {
  it("takes the visit's attribution (an extension beyond the description)", () => {
    const attribution = { utm_source: "newsletter", utm_medium: "email", utm_campaign: "spring" };
    expect(giftVerifyRequestSchema.parse({ ...gift, attribution }).attribution).toEqual(attribution);
  });

  it("accepts the minimal body and normalises it", () => {
    const parsed = giftVerifyRequestSchema.parse({ ...gift, item: 620, target: { ...gift.target, region: "kz" }, code: " welcome10 " });
    expect(parsed.item).toBe(620);
    expect(parsed.target.region).toBe("KZ");
    expect(parsed.code).toBe("WELCOME10");
  });

  it("accepts an invite link's code in capitals and stores it as the store writes it", () => {
    const parsed = giftVerifyRequestSchema.parse({
      ...gift,
      target: { ...gift.target, inviteUrl: " https://s.team/p/FHGC-RDQR/NQVGTQPG " },
    });
    expect(parsed.target.inviteUrl).toBe("https://s.team/p/fhgc-rdqr/NQVGTQPG");
  });

  it.each([
    [{ ...gift, item: undefined }, "item is required"],
    [{ ...gift, item: "abc" }, "item must be the game's appId (a positive integer)"],
    [{ ...gift, item: "0620" }, "item must be the game's appId (a positive integer)"],
    [{ ...gift, item: 1.5 }, "item must be the game's appId (a positive integer)"],
    [{ ...gift, platform: "store-gear" }, 'platform must be "store-gift" when given'],
    [{ ...gift, target: undefined }, "target is required"],
    [{ ...gift, target: "RU" }, "target must be an object with inviteUrl and region"],
    [
      { ...gift, target: { ...gift.target, inviteUrl: "https://evil.io/p/a/b" } },
      "target.inviteUrl must be a friend-invite link like https://s.team/p/fhgc-rdqr/NQVGTQPG",
    ],
    [{ ...gift, target: { ...gift.target, region: "RUS" } }, "target.region must be a two-letter region code such as RU"],
    [{ ...gift, target: { ...gift.target, packageId: -1 } }, "target.packageId must be a positive integer"],
    [{ ...gift, target: { ...gift.target, packageId: "6201" } }, "target.packageId must be a positive integer"],
    [{ ...gift, target: { ...gift.target, extra: 1 } }, "unknown field: target.extra"],
    [{ ...gift, email: "not-an-email" }, "email must be a valid e-mail address"],
    [{ ...gift, email: `${"a".repeat(250)}@x.io` }, "email must be at most 254 characters"],
    [{ ...gift, fee: "free" }, "fee must be one of: included, excluded, naive"],
    [{ ...gift, fee: undefined }, "fee is required"],
    [{ ...gift, code: "BAD CODE!" }, "code must be a promo code of 1 to 64 letters, digits, '-' or '_'"],
    [{ ...gift, amount: 1 }, "unknown field: amount"],
    [{ ...gift, attribution: { utm_source: "" } }, "attribution.utm_source must not be empty"],
    [{ ...gift, attribution: { gclid: "x" } }, "unknown field: attribution.gclid"],
    [[gift], "the request body must be a JSON object"],
    [null, "the request body must be a JSON object"],
  ])("%j -> %s", (input, message) => {
    expect(messageFor(giftVerifyRequestSchema, input)).toBe(message);
  });
});

describe("gearIntentRequestSchema", () => {
  const tradeLink = "https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12";

  it("accepts a full body and defaults the fee", () => {
    const parsed = gearIntentRequestSchema.parse({
      ...gear,
      additionalFields: { storeId: "shop-1", tradeLink },
      attribution: { utm_source: "vk", utm_medium: "cpc" },
      successUrl: "https://partner.example.com/ok",
      failureUrl: "http://localhost:3000/fail",
      callbackUrl: "https://partner.example.com/hook",
      code: "gear15",
    });
    expect(parsed.fee).toBe("excluded");
    expect(parsed.platform).toBe(730);
    expect(parsed.code).toBe("GEAR15");
  });

  it.each([
    ["https://пример.рф/ok", "https://xn--e1afmkfd.xn--p1ai/ok"],
    ["https://partner.example.com/заказ?n=ё", "https://partner.example.com/%D0%B7%D0%B0%D0%BA%D0%B0%D0%B7?n=%D1%91"],
    ["https://partner.example.com/ok\r\nSet-Cookie: a=1", "https://partner.example.com/okSet-Cookie:%20a=1"],
    ["https://partner.example.com/ok%0d%0aSet-Cookie:%20a=1", "https://partner.example.com/ok%0d%0aSet-Cookie:%20a=1"],
    ["HTTPS://Partner.Example.com:443/ok", "https://partner.example.com/ok"],
  ])("stores successUrl and failureUrl %j as the ASCII href %s, which a Location header can carry", (given, href) => {
    const parsed = gearIntentRequestSchema.parse({ ...gear, successUrl: given, failureUrl: given });
    expect(parsed.successUrl).toBe(href);
    expect(parsed.failureUrl).toBe(href);
  });

  it("marks a trade link of another account so forms can tell it from a malformed one", () => {
    const result = gearIntentRequestSchema.safeParse({
      ...gear,
      additionalFields: { tradeLink: tradeLink.replace("39734273", "39734274") },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toMatchObject([
      { code: "custom", path: ["additionalFields", "tradeLink"], params: { reason: "trade_link_mismatch" } },
    ]);
  });

  it("does not call a trade link another account's when the account itself is bad", () => {
    const result = gearIntentRequestSchema.safeParse({ ...gear, account: "", additionalFields: { tradeLink } });
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["account"]);
  });

  it.each([
    [{ ...gear, account: "76561197960265728" }, "account must be a SteamID64 of an individual account (17 digits, starting 7656119)"],
    [{ ...gear, account: 76561198000000001 }, "account must be a SteamID64 string of 17 digits"],
    [{ ...gear, platform: "cs2" }, "platform must be the game's appId (a positive integer)"],
    [{ ...gear, item: "" }, "item must not be empty"],
    [{ ...gear, fee: "included" }, 'fee must be "excluded" (the only fee mode for gear)'],
    [
      { ...gear, additionalFields: { tradeLink: "https://steamcommunity.com/tradeoffer/new/?partner=1" } },
      "additionalFields.tradeLink must look like https://steamcommunity.com/tradeoffer/new/?partner=<account id>&token=<8 characters>",
    ],
    [
      { ...gear, additionalFields: { tradeLink: tradeLink.replace("39734273", "39734274") } },
      "additionalFields.tradeLink belongs to another account than account",
    ],
    [
      { ...gear, additionalFields: { tradeLink: `${tradeLink}&partner=39734274` } },
      "additionalFields.tradeLink must give partner and token once each",
    ],
    [
      { ...gear, additionalFields: { tradeLink: `${tradeLink}&token=ZzZzZz99` } },
      "additionalFields.tradeLink must give partner and token once each",
    ],
    [{ ...gear, additionalFields: { storeId: "" } }, "additionalFields.storeId must not be empty"],
    [{ ...gear, successUrl: "javascript:alert(1)" }, "successUrl must be an absolute https:// URL (http:// only for localhost)"],
    [{ ...gear, failureUrl: "/relative" }, "failureUrl must be an absolute https:// URL (http:// only for localhost)"],
    [{ ...gear, callbackUrl: "http://partner.example.com/hook" }, "callbackUrl must be an absolute https:// URL"],
    [{ ...gear, callbackUrl: "https://user:pw@partner.example.com/hook" }, "callbackUrl must not carry a user name or password"],
    [{ ...gear, attribution: { utm_source: "" } }, "attribution.utm_source must not be empty"],
    [{ ...gear, attribution: { utm_source: 5 } }, "attribution.utm_source must be a string"],
    [{ ...gear, attribution: { gclid: "x" } }, "unknown field: attribution.gclid"],
    [{ ...gear, email: undefined }, "email is required"],
  ])("%j -> %s", (input, message) => {
    expect(messageFor(gearIntentRequestSchema, input)).toBe(message);
  });
});

describe("isAppId", () => {
  it.each([
    ["620", true],
    ["2147483647", true],
    ["2147483648", false],
    ["9999999999", false],
    ["0", false],
    ["0620", false],
    ["-1", false],
    ["6.2", false],
    ["", false],
  ])("%j is %s", (value, expected) => {
    expect(isAppId(value)).toBe(expected);
  });
});

describe("callbackUrlSchema", () => {
  const LOCAL = "callbackUrl must be a public address the store can reach";
  it.each([
    ["http://127.0.0.1:8080/hook", "callbackUrl must be an absolute https:// URL"],
    ["https://127.0.0.1/hook", `${LOCAL}: 127.0.0.1 is a loopback address`],
    ["https://127.1/hook", `${LOCAL}: 127.0.0.1 is a loopback address`],
    ["https://0x7f000001/hook", `${LOCAL}: 127.0.0.1 is a loopback address`],
    ["https://2130706433/hook", `${LOCAL}: 127.0.0.1 is a loopback address`],
    ["https://[::1]/hook", `${LOCAL}: ::1 is a loopback address`],
    ["https://[::ffff:127.0.0.1]/hook", `${LOCAL}: ::ffff:7f00:1 is a loopback address`],
    ["https://0.0.0.0/hook", `${LOCAL}: 0.0.0.0 is an unspecified address`],
    ["https://10.1.2.3/hook", `${LOCAL}: 10.1.2.3 is a private address`],
    ["https://192.168.0.10/hook", `${LOCAL}: 192.168.0.10 is a private address`],
    ["https://100.64.0.1/hook", `${LOCAL}: 100.64.0.1 is a cgnat address`],
    ["https://169.254.169.254/latest/meta-data/", `${LOCAL}: 169.254.169.254 is a metadata address`],
    ["https://[fd00:ec2::254]/", `${LOCAL}: fd00:ec2::254 is a metadata address`],
    ["https://[fe80::1]/hook", `${LOCAL}: fe80::1 is a link-local address`],
    ["https://localhost/hook", `${LOCAL}: localhost is a local name`],
    ["https://localhost./hook", `${LOCAL}: localhost. is a local name`],
    ["https://LOCALHOST:8443/hook", `${LOCAL}: localhost is a local name`],
    ["https://api.localhost/hook", `${LOCAL}: api.localhost is a local name`],
    ["https://metadata.google.internal/computeMetadata/v1/", `${LOCAL}: metadata.google.internal is a local name`],
    ["https://printer.local/hook", `${LOCAL}: printer.local is a local name`],
    ["https://intranet/hook", `${LOCAL}: intranet is a local name`],
    ["ftp://partner.example.com/hook", "callbackUrl must be an absolute https:// URL"],
    ["not a url", "callbackUrl must be an absolute https:// URL"],
  ])("refuses %s", (url, message) => {
    expect(messageFor(callbackUrlSchema("callbackUrl"), url)).toBe(message);
  });

  it.each([
    "https://partner.example.com/hook",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://partner.example.com./hook",
  ])("accepts %s", (url) => {
    expect(messageFor(callbackUrlSchema("callbackUrl"), url)).toBeNull();
  });

  it("opens the hosts WEBHOOK_ALLOW_HOSTS names, over http too, and only those", () => {
    allowCallbackHosts(["127.0.0.1", "[::1]", "Localhost"]);
    try {
      for (const url of ["http://127.0.0.1:9000/hook", "https://[::1]/hook", "http://localhost:3000/hook"]) {
        expect(messageFor(callbackUrlSchema("callbackUrl"), url)).toBeNull();
      }
      expect(messageFor(callbackUrlSchema("callbackUrl"), "http://localhost.:3000/hook")).toBe(
        "callbackUrl must be an absolute https:// URL",
      );
      expect(messageFor(callbackUrlSchema("callbackUrl"), "https://10.0.0.1/hook")).toBe(`${LOCAL}: 10.0.0.1 is a private address`);
    } finally {
      allowCallbackHosts([]);
    }
  });

  it("is the rule both intent requests apply to callbackUrl", () => {
    expect(messageFor(gearIntentRequestSchema, { ...gear, callbackUrl: "https://169.254.169.254/" })).toBe(
      `${LOCAL}: 169.254.169.254 is a metadata address`,
    );
    const gift = {
      item: "620",
      target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
      email: "a@example.com",
      fee: "excluded",
    };
    expect(messageFor(giftVerifyRequestSchema, { ...gift, callbackUrl: "https://localhost./hook" })).toBe(
      `${LOCAL}: localhost. is a local name`,
    );
  });
});

describe("locale on verify and gear requests (the shopper's mail language)", () => {
  it.each([
    ["gift", giftVerifyRequestSchema, gift],
    ["gear", gearIntentRequestSchema, gear],
  ] as const)("%s: optional, ru or en, anything else refused by name", (_, schema, body) => {
    expect((schema.parse(body) as { locale?: string }).locale).toBeUndefined();
    expect((schema.parse({ ...body, locale: "en" }) as { locale?: string }).locale).toBe("en");
    for (const bad of ["de", "EN", "", 1, null]) {
      expect(messageFor(schema, { ...body, locale: bad })).toBe("locale must be one of: ru, en");
    }
  });
});
