import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  gameRegionsSchema,
  gameVisibilitySchema,
  gearItemCreateSchema,
  gearStockAdjustSchema,
  promoCodeCreateSchema,
  promoCodeIdSchema,
  promoCodeUpdateSchema,
} from "./admin-catalog";
import { adminOrderFilterSchema } from "./admin-orders";
import { campaignReportQuerySchema, isoDaySchema } from "./campaigns";
import { adminDaySchema, pageNumber } from "./bounds";

// Every number and date the back office takes, held to what its database column holds: a value
// past it is the form's refusal naming the field (a URL filter drops it, as it drops any value it
// cannot read), never a query the database fails with a 500.

const INT4_MAX = 2 ** 31 - 1;
const promo = {
  code: "BOUNDS1",
  kind: "percent",
  value: "10",
  appliesTo: "all",
  appIds: "",
  validFrom: "",
  validUntil: "",
  maxUses: "",
} as const;
const gearItem = { platform: "730", item: "bounds", title: "Bounds", price: "10", stock: "1" };

const refusals: [string, z.ZodType, unknown, string, RegExp][] = [
  ["promo id 2^40", promoCodeUpdateSchema, { id: 2 ** 40, ...promo }, "id", /^id must be a whole number from 1 to 2147483647$/],
  ["promo id 2^31", promoCodeUpdateSchema, { id: 2 ** 31, ...promo }, "id", /^id must be/],
  ["promo id to disable 2^40", promoCodeIdSchema, { id: 2 ** 40 }, "id", /^id must be/],
  ["promo id 0", promoCodeIdSchema, { id: 0 }, "id", /^id must be/],
  ["gear item id 2^40", gearStockAdjustSchema, { itemId: 2 ** 40, mode: "set", amount: "1" }, "itemId", /^itemId must be/],
  ["stock past the largest", gearStockAdjustSchema, { itemId: 1, mode: "set", amount: "99999999" }, "amount", /^amount must be/],
  ["new item's stock past the largest", gearItemCreateSchema, { ...gearItem, stock: "99999999" }, "stock", /^stock must be/],
  ["game to hide 2^40", gameVisibilitySchema, { appId: 2 ** 40, hidden: true }, "appId", /^appId must be/],
  ["game to hide 2^31", gameVisibilitySchema, { appId: 2 ** 31, hidden: true }, "appId", /^appId must be/],
  ["game's regions 2^40", gameRegionsSchema, { appId: 2 ** 40, regions: "RU" }, "appId", /^appId must be/],
  ...(
    [
      ["year -271821", "-271821-04-20T00:00:00.000Z"],
      ["year 275760", "+275760-09-13T00:00:00.000Z"],
      ["year 0", "0000-06-01T00:00:00.000Z"],
      ["1999", "1999-12-31T23:59:59.000Z"],
      ["2100", "2100-01-01T00:00:00.000Z"],
    ] as const
  ).flatMap(([name, value]) =>
    (["validFrom", "validUntil"] as const).map(
      (field) =>
        [
          `promo ${field} in ${name}`,
          promoCodeCreateSchema,
          { ...promo, [field]: value },
          field,
          new RegExp(`^${field} must be a date and time from 2000-01-01 to 2099-12-31`),
        ] as [string, z.ZodType, unknown, string, RegExp],
    ),
  ),
];

describe("back-office forms", () => {
  it.each(refusals)("refuse %s, naming the field", (_name, schema, input, param, message) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path.join(".")).toBe(param);
    expect(issue.message).toMatch(message);
  });

  it("take the largest values their columns hold", () => {
    expect(promoCodeIdSchema.parse({ id: INT4_MAX }).id).toBe(INT4_MAX);
    expect(gearStockAdjustSchema.parse({ itemId: INT4_MAX, mode: "add", amount: "-9999999" }).amount).toBe(-9_999_999);
    expect(gameVisibilitySchema.parse({ appId: INT4_MAX, hidden: false }).appId).toBe(INT4_MAX);
    const window = promoCodeCreateSchema.parse({ ...promo, validFrom: "2000-01-01T00:00:00.000Z", validUntil: "2099-12-31T23:59:59.999Z" });
    expect([window.validFrom?.toISOString(), window.validUntil?.toISOString()]).toEqual([
      "2000-01-01T00:00:00.000Z",
      "2099-12-31T23:59:59.999Z",
    ]);
  });
});

describe("back-office URL filters", () => {
  it.each(["0000-01-01", "1999-12-31", "2100-01-01", "9999-12-31", "2026-02-30", "+02026-01-01"])("drop the day %s", (day) => {
    expect(adminDaySchema.safeParse(day).success).toBe(false);
    expect(isoDaySchema.safeParse(day).success).toBe(false);
    expect(adminOrderFilterSchema.parse({ from: day, to: day })).toMatchObject({ from: undefined, to: undefined });
    expect(campaignReportQuerySchema.parse({ from: day, to: day })).toMatchObject({ from: undefined, to: undefined });
  });

  it("keep a day in the window", () => {
    expect(adminOrderFilterSchema.parse({ from: "2000-01-01", to: "2099-12-31" })).toMatchObject({ from: "2000-01-01", to: "2099-12-31" });
    expect(campaignReportQuerySchema.parse({ from: "2026-03-01" }).from).toBe("2026-03-01");
  });

  it.each([
    [undefined, 1],
    ["", 1],
    ["0", 1],
    ["-3", 1],
    ["abc", 1],
    ["2", 2],
    ["10000", 10_000],
    ["10001", 10_000],
    ["1e400", 1],
    ["1".padEnd(40, "0"), 10_000],
    ["9007199254740993", 10_000],
  ])("read the page %j as %i", (value, page) => expect(pageNumber(value)).toBe(page));
});
