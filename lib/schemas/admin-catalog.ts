import { z } from "zod";
import "./zod-config";
import type { ImportProblemList, ImportSkip, ImportWarning } from "@/lib/catalog/import-problems";
import { MAX_PRICE_KOPECKS } from "@/lib/money";
import { adminInstantMessage, intIdSchema, isAdminInstant } from "./bounds";
import { isAppId, promoCodeSchema } from "./common";

// The back office's promo-code, gear-stock and catalog forms: each schema checks the form in the
// browser and the same input again in its server action. Inputs are the form's strings; outputs
// are what the services store (kopecks, dates, id lists).

const blank = (v: string) => v.trim() === "";

/** Roubles as typed (`150`, `150.50`, `150,5`) to kopecks; null when it is not such a number. */
export function roublesToKopecks(text: string): number | null {
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim().replace(/\s/g, ""));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

const roubles = (field: string) =>
  z.string().transform((v, ctx) => {
    const kopecks = roublesToKopecks(v);
    if (kopecks === null || kopecks <= 0 || kopecks > MAX_PRICE_KOPECKS) {
      ctx.addIssue({ code: "custom", message: `${field} must be an amount in roubles from 0.01 to ${MAX_PRICE_KOPECKS / 100}` });
      return z.NEVER;
    }
    return kopecks;
  });

/** `620, 730` (commas or spaces) to app ids; empty is null (every game or platform). */
const appIdList = z.string().transform((v, ctx) => {
  if (blank(v)) return null;
  const parts = v.split(/[\s,;]+/).filter(Boolean);
  const bad = parts.find((p) => !isAppId(p));
  if (bad !== undefined) {
    ctx.addIssue({ code: "custom", message: `appIds must be app ids separated by commas (not "${bad.slice(0, 20)}")` });
    return z.NEVER;
  }
  return [...new Set(parts.map(Number))];
});

/** An ISO date-time (the form converts its local datetime-local value) within the back office's window, or empty for none. */
const optionalInstant = (field: string) =>
  z.string().transform((v, ctx) => {
    if (blank(v)) return null;
    const date = new Date(v);
    if (!isAdminInstant(date)) {
      ctx.addIssue({ code: "custom", message: adminInstantMessage(field) });
      return z.NEVER;
    }
    return date;
  });

const optionalCount = (field: string) =>
  z.string().transform((v, ctx) => {
    if (blank(v)) return null;
    if (!/^\d{1,9}$/.test(v.trim()) || Number(v) < 1) {
      ctx.addIssue({ code: "custom", message: `${field} must be a whole number of at least 1, or empty for no limit` });
      return z.NEVER;
    }
    return Number(v);
  });

export const PROMO_KINDS = ["percent", "fixed"] as const;
export const PROMO_APPLIES_TO = ["all", "gifts", "gear"] as const;

const promoCodeFields = {
  code: promoCodeSchema,
  kind: z.enum(PROMO_KINDS),
  /** Percent (1-100), or roubles off for `fixed`. */
  value: z.string(),
  appliesTo: z.enum(PROMO_APPLIES_TO),
  appIds: appIdList,
  validFrom: optionalInstant("validFrom"),
  validUntil: optionalInstant("validUntil"),
  maxUses: optionalCount("maxUses"),
};

type PromoFields = { kind: (typeof PROMO_KINDS)[number]; value: string; validFrom: Date | null; validUntil: Date | null };

function promoValue<T extends PromoFields>(input: T, ctx: z.RefinementCtx): Omit<T, "value"> & { value: number } {
  let value: number | null;
  if (input.kind === "percent") {
    value = /^\d{1,3}$/.test(input.value.trim()) ? Number(input.value) : null;
    if (value === null || value < 1 || value > 100) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "value must be a whole percent from 1 to 100" });
      return z.NEVER;
    }
  } else {
    value = roublesToKopecks(input.value);
    if (value === null || value <= 0 || value > MAX_PRICE_KOPECKS) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "value must be an amount in roubles, more than 0" });
      return z.NEVER;
    }
  }
  if (input.validFrom && input.validUntil && input.validUntil <= input.validFrom) {
    ctx.addIssue({ code: "custom", path: ["validUntil"], message: "validUntil must be after validFrom" });
    return z.NEVER;
  }
  return { ...input, value };
}

export const promoCodeCreateSchema = z.strictObject(promoCodeFields).transform(promoValue);
export const promoCodeUpdateSchema = z.strictObject({ id: intIdSchema("id"), ...promoCodeFields }).transform(promoValue);
export type PromoCodeFormInput = z.input<typeof promoCodeCreateSchema>;
export type PromoCodeCreate = z.output<typeof promoCodeCreateSchema>;
export type PromoCodeUpdate = z.output<typeof promoCodeUpdateSchema>;
export type PromoCodeField = keyof PromoCodeFormInput;

export const promoCodeIdSchema = z.strictObject({ id: intIdSchema("id") });

export const PROMO_STATES = ["active", "scheduled", "expired", "used_up", "disabled"] as const;
export type PromoState = (typeof PROMO_STATES)[number];

/** A code's state as the list shows it: switched off beats used up beats outside its window. */
export function promoState(
  promo: { disabledAt: Date | null; maxUses: number | null; uses: number; validFrom: Date | null; validUntil: Date | null },
  now: Date,
): PromoState {
  if (promo.disabledAt) return "disabled";
  if (promo.maxUses !== null && promo.uses >= promo.maxUses) return "used_up";
  if (promo.validUntil && promo.validUntil <= now) return "expired";
  if (promo.validFrom && promo.validFrom > now) return "scheduled";
  return "active";
}

// Gear stock

export const STOCK_MODES = ["set", "add"] as const;

/** The most units of one item the store keeps: what a form takes (7 digits), far inside the column. */
export const MAX_GEAR_STOCK = 9_999_999;

export const gearStockAdjustSchema = z.strictObject({
  itemId: intIdSchema("itemId"),
  /** `set`: the stock becomes `amount`; `add`: `amount` (negative to take away) is added, the result at most MAX_GEAR_STOCK. */
  mode: z.enum(STOCK_MODES),
  amount: z
    .string()
    .trim()
    .regex(/^[-+]?\d{1,7}$/, { error: `amount must be a whole number from -${MAX_GEAR_STOCK} to ${MAX_GEAR_STOCK}` })
    .transform(Number),
});
export type GearStockAdjust = z.output<typeof gearStockAdjustSchema>;

export const gearItemCreateSchema = z.strictObject({
  platform: z.string().trim().refine(isAppId, { error: "platform must be the game's app id" }).transform(Number),
  item: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: "item must be 1 to 64 lower-case letters, digits, '-' or '_'" }),
  title: z.string().trim().min(1, { error: "title must not be empty" }).max(200, { error: "title must be at most 200 characters" }),
  price: roubles("price"),
  stock: z
    .string()
    .trim()
    .regex(/^\d{1,7}$/, { error: `stock must be a whole number from 0 to ${MAX_GEAR_STOCK}` })
    .transform(Number),
});
export type GearItemCreate = z.output<typeof gearItemCreateSchema>;
export type GearItemField = keyof z.input<typeof gearItemCreateSchema>;

// The catalog

export const gameVisibilitySchema = z.strictObject({ appId: intIdSchema("appId"), hidden: z.boolean() });

export const gameRegionsSchema = z.strictObject({
  appId: intIdSchema("appId"),
  /** `RU, KZ` (commas or spaces), upper-cased; empty leaves the game giftable nowhere. */
  regions: z.string().transform((v, ctx) => {
    const codes = v
      .toUpperCase()
      .split(/[\s,;]+/)
      .filter(Boolean);
    const bad = codes.find((c) => !/^[A-Z]{2}$/.test(c));
    if (bad !== undefined) {
      ctx.addIssue({ code: "custom", message: `regions must be two-letter country codes (not "${bad.slice(0, 10)}")` });
      return z.NEVER;
    }
    return [...new Set(codes)].sort();
  }),
});

/** The largest catalog file the back office takes in one upload. */
export const CATALOG_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** One line of the import's NDJSON answer: progress as games are written, then the result. */
export type CatalogImportLine =
  | { type: "progress"; done: number; total: number }
  | {
      type: "done";
      imported: number;
      updated: number;
      /**
       * The entries left out, by reason with details (the page words them in the viewer's language):
       * the first few and how many of each reason, so the answer is small whatever the file.
       */
      errors: ImportProblemList<ImportSkip>;
      warnings: ImportProblemList<ImportWarning>;
    }
  | { type: "failed"; reason: "internal_error" };
