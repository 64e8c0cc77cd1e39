import { describe, expect, it } from "vitest";
import { applyFee, discountAmount, feeRateToBps, formatRub, quote } from "./money";

const FIVE_PERCENT = feeRateToBps(0.05);

describe("applyFee", () => {
  it.each([
    // base, mode, pay, fee
    [100_000, "excluded", 105_000, 5_000],
    [100_000, "included", 100_000, 5_000],
    [100_000, "naive", 105_264, 5_264], // ceil(100000 / 0.95) = 105263.16 -> 105264
    [95_000, "naive", 100_000, 5_000], // exact division stays exact
    [10, "excluded", 11, 1], // round(0.5) rounds half up
    [9, "excluded", 9, 0], // round(0.45) = 0
    [0, "naive", 0, 0],
  ] as const)("%i kopecks, %s -> pays %i", (base, mode, pay, fee) => {
    expect(applyFee(base, mode, FIVE_PERCENT)).toEqual({ paymentAmount: pay, feeAmount: fee });
  });

  it("orders included <= excluded <= naive for every base", () => {
    for (let base = 1; base < 5_000; base += 7) {
      const [inc, exc, nai] = (["included", "excluded", "naive"] as const).map((m) => applyFee(base, m, FIVE_PERCENT).paymentAmount);
      expect(inc).toBeLessThanOrEqual(exc!);
      expect(exc).toBeLessThanOrEqual(nai!);
    }
  });

  it("naive makes the fee r of the payment, never less", () => {
    for (let base = 1; base < 20_000; base += 13) {
      const { paymentAmount } = applyFee(base, "naive", FIVE_PERCENT);
      expect(paymentAmount - base).toBeGreaterThanOrEqual(paymentAmount * 0.05 - 1e-9);
      expect(paymentAmount - 1 - base).toBeLessThan((paymentAmount - 1) * 0.05);
    }
  });

  it("with a zero rate every mode pays the base", () => {
    for (const mode of ["included", "excluded", "naive"] as const) {
      expect(applyFee(12_345, mode, 0).paymentAmount).toBe(12_345);
    }
  });

  it("stays exact for large amounts", () => {
    expect(applyFee(999_999_999, "excluded", FIVE_PERCENT).paymentAmount).toBe(1_049_999_999);
  });

  it("rejects fractional or negative amounts", () => {
    expect(() => applyFee(10.5, "excluded", FIVE_PERCENT)).toThrow(RangeError);
    expect(() => applyFee(-1, "excluded", FIVE_PERCENT)).toThrow(RangeError);
  });
});

describe("feeRateToBps", () => {
  it("converts decimal rates", () => {
    expect(feeRateToBps(0.05)).toBe(500);
    expect(feeRateToBps(0.0725)).toBe(725);
    expect(feeRateToBps(0)).toBe(0);
  });
  it("rejects a rate of 100 % or more", () => {
    expect(() => feeRateToBps(1)).toThrow(RangeError);
  });
});

describe("discountAmount", () => {
  it("takes percent off, rounding half up", () => {
    expect(discountAmount(39_900, { kind: "percent", value: 10 })).toBe(3_990);
    expect(discountAmount(15, { kind: "percent", value: 10 })).toBe(0); // a price under 1 ₽ is never discounted
    expect(discountAmount(1_005, { kind: "percent", value: 10 })).toBe(101); // 100.5 -> 101
  });
  it("takes a fixed amount off", () => {
    expect(discountAmount(39_900, { kind: "fixed", value: 30_000 })).toBe(30_000);
  });
  it("never takes the price below 1 ₽", () => {
    expect(discountAmount(39_900, { kind: "fixed", value: 50_000 })).toBe(39_800);
    expect(discountAmount(39_900, { kind: "percent", value: 100 })).toBe(39_800);
  });
  it("never discounts a price already at or below 1 ₽", () => {
    expect(discountAmount(100, { kind: "percent", value: 50 })).toBe(0);
    expect(discountAmount(50, { kind: "fixed", value: 10 })).toBe(0);
  });
});

describe("quote", () => {
  it("applies the promo code before the fee", () => {
    expect(quote(149_950, "excluded", FIVE_PERCENT, { kind: "percent", value: 10 })).toEqual({
      intentAmount: 149_950,
      discountAmount: 14_995,
      feeAmount: 6_748, // round(134955 * 0.05) = round(6747.75)
      paymentAmount: 141_703,
    });
  });
  it("without a code pays the price plus the fee", () => {
    expect(quote(39_900, "excluded", FIVE_PERCENT)).toEqual({
      intentAmount: 39_900,
      discountAmount: 0,
      feeAmount: 1_995,
      paymentAmount: 41_895,
    });
  });
});

describe("formatRub", () => {
  const nbsp = /[\u00a0\u202f]/g;
  it("formats whole roubles without kopecks", () => {
    expect(formatRub(129_900).replace(nbsp, " ")).toBe("1 299 ₽");
  });
  it("shows kopecks when there are any", () => {
    expect(formatRub(149_950).replace(nbsp, " ")).toBe("1 499,50 ₽");
  });
  it("formats for English readers too", () => {
    expect(formatRub(129_900, "en-US").replace(nbsp, " ")).toBe("₽1,299");
  });
});
