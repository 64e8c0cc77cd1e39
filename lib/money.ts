// Integer kopecks everywhere; rounding happens here and nowhere else.

/** The store's one currency: every amount is kopecks of it. */
export const CURRENCY = "RUB" as const;
export const FEE_MODES = ["included", "excluded", "naive"] as const;
export type FeeMode = (typeof FEE_MODES)[number];

/**
 * The dearest price the store takes (1 000 000 ₽): every amount derived from a price, the naive fee
 * at the highest FEE_RATE included, then fits a 32-bit integer column. The database refuses more.
 */
export const MAX_PRICE_KOPECKS = 100_000_000;

/** A promo code never brings a price below this (1 ₽), nor below the price itself when that is lower. */
export const MIN_PAYMENT_KOPECKS = 100;

const BPS = 10_000;

/** The fee rate as integer basis points, so every later step is integer arithmetic. */
export function feeRateToBps(rate: number): number {
  const bps = Math.round(rate * BPS);
  if (!Number.isInteger(bps) || bps < 0 || bps >= BPS) throw new RangeError(`fee rate ${rate} is outside [0, 1)`);
  return bps;
}

function assertKopecks(amount: number, name: string): void {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`${name} must be a non-negative integer of kopecks`);
}

/** round(n / d) with halves rounded up, for non-negative integers. */
function divRoundHalfUp(n: number, d: number): number {
  return Math.floor((2 * n + d) / (2 * d));
}

function divCeil(n: number, d: number): number {
  return Math.floor((n + d - 1) / d);
}

export interface FeeResult {
  paymentAmount: number;
  /** The store's fee inside `paymentAmount` (for `included`, carved out of the price). */
  feeAmount: number;
}

/**
 * excluded: pay = base + round(base * r); included: pay = base; naive: pay = ceil(base / (1 - r)).
 * For r > 0 this orders included <= excluded <= naive.
 */
export function applyFee(base: number, mode: FeeMode, rateBps: number): FeeResult {
  assertKopecks(base, "base");
  switch (mode) {
    case "excluded": {
      const fee = divRoundHalfUp(base * rateBps, BPS);
      return { paymentAmount: base + fee, feeAmount: fee };
    }
    case "included":
      return { paymentAmount: base, feeAmount: divRoundHalfUp(base * rateBps, BPS) };
    case "naive": {
      const pay = divCeil(base * BPS, BPS - rateBps);
      return { paymentAmount: pay, feeAmount: pay - base };
    }
  }
}

export interface Discount {
  kind: "percent" | "fixed";
  /** Percent 1..100, or kopecks off. */
  value: number;
}

/** Kopecks taken off `price` by a promo code, capped so the price stays at or above the minimum payment. */
export function discountAmount(price: number, discount: Discount): number {
  assertKopecks(price, "price");
  const raw = discount.kind === "percent" ? divRoundHalfUp(price * discount.value, 100) : discount.value;
  const floor = Math.min(price, MIN_PAYMENT_KOPECKS);
  return Math.max(0, Math.min(raw, price - floor));
}

export interface Quote {
  intentAmount: number;
  discountAmount: number;
  feeAmount: number;
  paymentAmount: number;
}

/** What the buyer pays for `price` with an optional promo code and a fee mode. */
export function quote(price: number, mode: FeeMode, rateBps: number, discount?: Discount): Quote {
  if (price > MAX_PRICE_KOPECKS) throw new RangeError(`price ${price} is over the store's bound of ${MAX_PRICE_KOPECKS} kopecks`);
  const off = discount ? discountAmount(price, discount) : 0;
  const { paymentAmount, feeAmount } = applyFee(price - off, mode, rateBps);
  return { intentAmount: price, discountAmount: off, feeAmount, paymentAmount };
}

/** How the store's own pages price a purchase: its fee mode for gifts (gear is always `excluded`) and the rate. */
export interface StorePricing {
  giftFeeMode: FeeMode;
  feeRateBps: number;
}

/** The fee mode the store's own pages use for `kind`: gear knows only `excluded`. */
export const storeFeeMode = (pricing: StorePricing, kind: "gift" | "gear"): FeeMode => (kind === "gear" ? "excluded" : pricing.giftFeeMode);

/**
 * A catalog price as the shopper will pay it on the store's own pages, fee and all (no promo code):
 * the one number a card, the game page, the gear list and the payment page agree on.
 */
export function allInPrice<P extends { paymentAmount: number; paymentAmountFull?: number }>(
  price: P,
  pricing: StorePricing,
  kind: "gift" | "gear" = "gift",
): P {
  const mode = storeFeeMode(pricing, kind);
  const pay = (kopecks: number) => quote(kopecks, mode, pricing.feeRateBps).paymentAmount;
  return {
    ...price,
    paymentAmount: pay(price.paymentAmount),
    ...(price.paymentAmountFull === undefined ? {} : { paymentAmountFull: pay(price.paymentAmountFull) }),
  };
}

const formatters = new Map<string, Intl.NumberFormat>();

/** `129900` -> `1 299 ₽` (kopecks shown only when there are any). */
export function formatRub(kopecks: number, locale = "ru-RU"): string {
  const fractional = kopecks % 100 !== 0;
  const key = `${locale}:${fractional}`;
  let fmt = formatters.get(key);
  if (!fmt) {
    fmt = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: CURRENCY,
      // "₽" in every language: English would otherwise print the code ("RUB 1,299").
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: fractional ? 2 : 0,
      maximumFractionDigits: 2,
    });
    formatters.set(key, fmt);
  }
  return fmt.format(kopecks / 100);
}
