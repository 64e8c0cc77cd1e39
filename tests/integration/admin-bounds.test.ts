import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import { ensureUser } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "../support/db";

// The back office's actions as an admin calls them, with numbers and dates past what their columns
// hold: each is the action's refusal naming the field (the page shows it), and nothing is written.
// Before the bounds, each reached the database and failed there: the action threw (a 500 page).

const viewer = vi.hoisted(() => ({ user: null as { id: string; email: string; name: null } | null }));
vi.mock("@/lib/auth/session", () => ({ getSessionUser: async () => viewer.user }));
vi.mock("@/lib/services/staff", async (original) => ({
  ...(await original<typeof import("@/lib/services/staff")>()),
  findStaffRole: async () => "admin",
}));
const test = vi.hoisted(() => ({ db: null as Database | null }));
vi.mock("@/lib/db/client", async (original) => ({
  ...(await original<typeof import("@/lib/db/client")>()),
  getDb: () => test.db!,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {}, refresh: () => {} }));

const { adjustGearStockAction, createGearItemAction } = await import("@/app/admin/gear/actions");
const { createPromoCodeAction, disablePromoCodeAction, enablePromoCodeAction, updatePromoCodeAction } =
  await import("@/app/admin/promo-codes/actions");
const { setGameHiddenAction, setGameRegionsAction } = await import("@/app/admin/catalog/actions");

let t: TestDatabase;
let itemId = 0;
let promoId = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  test.db = t.db;
  const userId = await ensureUser(t.db, "bounds-admin@example.com");
  viewer.user = { id: userId, email: "bounds-admin@example.com", name: null };
  const { rows } = await t.pool.query<{ id: number }>("SELECT id FROM gear_items WHERE item = 'ak47-redline'");
  itemId = rows[0]!.id;
  const promo = await t.pool.query<{ id: number }>("SELECT id FROM promo_codes WHERE code = 'WELCOME10'");
  promoId = promo.rows[0]!.id;
});

afterAll(() => t?.close());

const promoFields = { kind: "percent", value: "10", appliesTo: "all", appIds: "", validFrom: "", validUntil: "", maxUses: "" } as const;

const cases: [string, () => Promise<unknown>, string][] = [
  ["disabling promo code 2^40", () => disablePromoCodeAction({ id: 2 ** 40 }), "id"],
  ["enabling promo code 2^40", () => enablePromoCodeAction({ id: 2 ** 40 }), "id"],
  ["editing promo code 2^40", () => updatePromoCodeAction({ id: 2 ** 40, code: "BOUNDS", ...promoFields }), "id"],
  [
    "a promo code valid from year -271821",
    () => createPromoCodeAction({ code: "BOUNDS1", ...promoFields, validFrom: "-271821-04-20T00:00:00.000Z" }),
    "validFrom",
  ],
  [
    "a promo code valid until year 275760",
    () => createPromoCodeAction({ code: "BOUNDS2", ...promoFields, validUntil: "+275760-09-13T00:00:00.000Z" }),
    "validUntil",
  ],
  ["the stock of gear item 2^40", () => adjustGearStockAction({ itemId: 2 ** 40, mode: "set", amount: "5" }), "itemId"],
  ["hiding game 2^40", () => setGameHiddenAction({ appId: 2 ** 40, hidden: true }), "appId"],
  ["the regions of game 2^40", () => setGameRegionsAction({ appId: 2 ** 40, regions: "RU" }), "appId"],
];

describe("back-office actions given numbers past their columns", () => {
  it.each(cases)("refuse %s, naming the field", async (_name, call, param) => {
    const audit = await t.pool.query("SELECT count(*)::int AS n FROM audit_log");
    expect(await call()).toMatchObject({ ok: false, reason: "invalid_field", param });
    const after = await t.pool.query("SELECT count(*)::int AS n FROM audit_log");
    expect(after.rows[0].n).toBe(audit.rows[0].n);
  });

  it("refuse a stock increase past the largest stock, and keep the stock", async () => {
    await t.pool.query("UPDATE gear_items SET stock = 2147483000 WHERE id = $1", [itemId]);
    expect(await adjustGearStockAction({ itemId, mode: "add", amount: "9999999" })).toMatchObject({
      ok: false,
      reason: "invalid_field",
      param: "amount",
    });
    const { rows } = await t.pool.query<{ stock: number }>("SELECT stock FROM gear_items WHERE id = $1", [itemId]);
    expect(rows[0]!.stock).toBe(2147483000);
    await t.pool.query("UPDATE gear_items SET stock = 9999990 WHERE id = $1", [itemId]);
    expect(await adjustGearStockAction({ itemId, mode: "add", amount: "10" })).toMatchObject({
      ok: false,
      reason: "invalid_field",
      param: "amount",
    });
    expect(await adjustGearStockAction({ itemId, mode: "add", amount: "9" })).toEqual({
      ok: true,
      stock: 9_999_999,
      reserved: expect.any(Number),
    });
  });

  it("still do the work within the bounds", async () => {
    expect(await disablePromoCodeAction({ id: promoId })).toEqual({ ok: true });
    expect(await enablePromoCodeAction({ id: promoId })).toEqual({ ok: true });
    expect(
      await createGearItemAction({ platform: "730", item: "bounds-crate", title: "Bounds crate", price: "10", stock: "9999999" }),
    ).toMatchObject({ ok: true });
    expect(
      await createPromoCodeAction({
        code: "BOUNDS3",
        ...promoFields,
        validFrom: "2026-01-01T00:00:00.000Z",
        validUntil: "2099-12-31T23:59:59.000Z",
      }),
    ).toMatchObject({ ok: true });
  });
});
