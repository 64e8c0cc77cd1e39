import { describe, expect, it } from "vitest";
import { promoCodeProblem } from "./promo-codes";

const now = new Date("2026-06-01T12:00:00Z");
const code = (overrides: Partial<Parameters<typeof promoCodeProblem>[0]> = {}) => ({
  code: "SALE",
  appliesTo: "all" as const,
  appIds: null,
  validFrom: null,
  validUntil: null,
  ...overrides,
});

describe("promoCodeProblem", () => {
  it.each([
    ["an unrestricted code for a gift", code(), { kind: "gifts", appId: 620 }],
    ["an unrestricted code for gear", code(), { kind: "gear", appId: 730 }],
    ["a gifts-only code for a gift", code({ appliesTo: "gifts" }), { kind: "gifts", appId: 620 }],
    ["a code limited to this game", code({ appIds: [620, 570] }), { kind: "gifts", appId: 620 }],
    [
      "a code inside its window",
      code({ validFrom: new Date("2026-01-01"), validUntil: new Date("2027-01-01") }),
      { kind: "gear", appId: 730 },
    ],
    ["a code starting this very moment", code({ validFrom: now }), { kind: "gear", appId: 730 }],
  ] as const)("accepts %s", (_, promo, target) => {
    expect(promoCodeProblem(promo, target, now)).toBeNull();
  });

  it.each([
    [
      "a code not valid yet",
      code({ validFrom: new Date("2026-06-01T12:00:01Z") }),
      { kind: "gifts", appId: 620 },
      "promo_code_not_yet_valid",
    ],
    ["a code that ended this very moment", code({ validUntil: now }), { kind: "gifts", appId: 620 }, "promo_code_expired"],
    ["a gear code for a gift", code({ appliesTo: "gear" }), { kind: "gifts", appId: 620 }, "promo_code_not_for_gifts"],
    ["a gifts code for gear", code({ appliesTo: "gifts" }), { kind: "gear", appId: 730 }, "promo_code_not_for_gear"],
    ["a code for another game", code({ appIds: [570] }), { kind: "gifts", appId: 620 }, "promo_code_not_for_game"],
    ["a code for another platform", code({ appIds: [570] }), { kind: "gear", appId: 730 }, "promo_code_not_for_platform"],
    ["a code with an empty game list", code({ appIds: [] }), { kind: "gear", appId: 730 }, "promo_code_not_for_platform"],
  ] as const)("refuses %s", (_, promo, target, reason) => {
    expect(promoCodeProblem(promo, target, now)).toBe(reason);
  });
});
