import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  gameRegionsSchema,
  gearItemCreateSchema,
  gearStockAdjustSchema,
  promoCodeCreateSchema,
  promoCodeUpdateSchema,
} from "@/lib/schemas/admin-catalog";
import { parseAppdetails } from "@/lib/catalog/import-appdetails";
import { catalogQuerySchema } from "@/lib/schemas/catalog";
import { gearIntentRequestSchema } from "@/lib/schemas/gear";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { getAdminGame, importCatalogFile, searchAdminGames, setGameHidden, setGameRegions } from "@/lib/services/admin-catalog";
import { adjustGearStock, createGearItem, listGearStock } from "@/lib/services/admin-gear";
import { createPromoCode, listPromoCodes, setPromoCodeDisabled, updatePromoCode } from "@/lib/services/admin-promo-codes";
import { listAudit, type Actor } from "@/lib/services/audit";
import { clearCatalogCache, getGameOrThrow, listCatalog } from "@/lib/services/catalog";
import { reserveGear } from "@/lib/services/gear";
import { verifyGift } from "@/lib/services/gifts";
import { payIntent } from "@/lib/services/intent-lifecycle";
import { createApiToken, ensureUser, type AuthToken } from "@/lib/services/tokens";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { partnerAccount } from "@/tests/support/partners";

// The back office's promo codes, gear stock and catalog: each change, its audit entry, and what the
// store does after it (a disabled code refused like an unknown one, a hidden game neither listed nor sold).

const ORIGIN = "https://store.example.com";
let t: TestDatabase;
let token: AuthToken;
let actor: Actor;

beforeAll(async () => {
  t = await createTestDatabase();
  const userId = await partnerAccount(t.db, "partner-admin-catalog@example.com");
  const created = await createApiToken(t.db, { userId, name: "partner", scopes: ["gifts:verify", "gear:create", "intents:read"] });
  token = { id: created.id, userId, name: created.name, scopes: created.scopes, purpose: "api", guest: false };
  const staffId = await ensureUser(t.db, "marketer@example.com");
  actor = { userId: staffId, label: "marketer@example.com" };
});
afterAll(() => t?.close());

const lastAudit = async (action: string, targetId?: string) => (await listAudit(t.db, { action, targetId, limit: 1 })).entries[0];

const promoForm = (overrides: Record<string, string> = {}) => ({
  code: "spring25",
  kind: "percent" as const,
  value: "25",
  appliesTo: "all" as const,
  appIds: "",
  validFrom: "",
  validUntil: "",
  maxUses: "",
  ...overrides,
});

const giftBody = (code?: string, item = "620") =>
  giftVerifyRequestSchema.parse({
    item,
    target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
    email: "buyer@example.com",
    fee: "excluded",
    ...(code ? { code } : {}),
  });

const gearBody = (item: string, platform = "730") =>
  gearIntentRequestSchema.parse({ account: "76561198000000001", platform, item, email: "g@example.com" });

describe("promo codes", () => {
  it("creates a code upper-cased, audited, and refuses the same code again as a field error", async () => {
    const created = await createPromoCode(t.db, actor, promoCodeCreateSchema.parse(promoForm()));
    expect(created).toMatchObject({ code: "SPRING25", kind: "percent", value: 25, appliesTo: "all", uses: 0, disabledAt: null });
    expect(await lastAudit("promo_code.create")).toMatchObject({
      actor: "marketer@example.com",
      actorId: actor.userId,
      targetType: "promo_code",
      targetId: String(created.id),
      before: null,
      after: { code: "SPRING25", value: 25 },
    });
    await expect(createPromoCode(t.db, actor, promoCodeCreateSchema.parse(promoForm({ code: "Spring25" })))).rejects.toMatchObject({
      reason: "promo_code_taken",
      param: "code",
    });
  });

  it("takes a fixed amount in roubles and stores kopecks; checks the form's values", () => {
    expect(promoCodeCreateSchema.parse(promoForm({ kind: "fixed", value: "150,50" })).value).toBe(15050);
    const bad = (o: Record<string, string>) => promoCodeCreateSchema.safeParse(promoForm(o)).error?.issues[0]?.path[0];
    expect(bad({ value: "0" })).toBe("value");
    expect(bad({ value: "101" })).toBe("value");
    expect(bad({ kind: "fixed", value: "-5" })).toBe("value");
    expect(bad({ code: "no spaces" })).toBe("code");
    expect(bad({ appIds: "620, x" })).toBe("appIds");
    expect(bad({ validFrom: "2026-02-01T00:00:00Z", validUntil: "2026-01-01T00:00:00Z" })).toBe("validUntil");
    expect(promoCodeCreateSchema.parse(promoForm({ appIds: "620 730, 620", appliesTo: "gifts" })).appIds).toEqual([620, 730]);
  });

  it("edits a code, audited with before and after, and never puts its limit below its uses", async () => {
    const created = await createPromoCode(t.db, actor, promoCodeCreateSchema.parse(promoForm({ code: "EDITME", maxUses: "10" })));
    await verifyGift(t.db, token, giftBody("EDITME"), ORIGIN);
    await verifyGift(t.db, token, giftBody("EDITME"), ORIGIN);
    const update = (o: Record<string, string>) => promoCodeUpdateSchema.parse({ id: created.id, ...promoForm({ code: "EDITME", ...o }) });
    await expect(updatePromoCode(t.db, actor, update({ maxUses: "1" }))).rejects.toMatchObject({
      reason: "promo_code_limit_below_uses",
      details: { uses: 2 },
      param: "maxUses",
    });
    const after = await updatePromoCode(
      t.db,
      actor,
      update({ kind: "fixed", value: "100", maxUses: "2", appliesTo: "gifts", appIds: "620" }),
    );
    expect(after).toMatchObject({ kind: "fixed", value: 10000, maxUses: 2, uses: 2, appliesTo: "gifts", appIds: [620] });
    expect(await lastAudit("promo_code.update")).toMatchObject({
      targetId: String(created.id),
      before: { kind: "percent", value: 25, maxUses: 10 },
      after: { kind: "fixed", value: 10000, maxUses: 2 },
    });
    await expect(updatePromoCode(t.db, actor, promoCodeUpdateSchema.parse({ id: 999999, ...promoForm() }))).rejects.toMatchObject({
      reason: "promo_code_not_found",
    });
  });

  it("refuses a disabled code at checkout exactly as an unknown one, and takes it again once enabled", async () => {
    const created = await createPromoCode(t.db, actor, promoCodeCreateSchema.parse(promoForm({ code: "SWITCH" })));
    await setPromoCodeDisabled(t.db, actor, created.id, true);
    const unknown = await verifyGift(t.db, token, giftBody("NOSUCHCODE"), ORIGIN).catch((e: unknown) => e);
    const disabled = await verifyGift(t.db, token, giftBody("SWITCH"), ORIGIN).catch((e: unknown) => e);
    expect(disabled).toMatchObject({ reason: "promo_code_unknown", param: "code", details: { code: "SWITCH" } });
    expect(unknown).toMatchObject({ reason: "promo_code_unknown", param: "code" });
    await expect(reserveGear(t.db, token, { ...gearBody("sticker-capsule"), code: "SWITCH" }, ORIGIN)).rejects.toMatchObject({
      reason: "promo_code_unknown",
    });
    expect(await lastAudit("promo_code.disable")).toMatchObject({ targetId: String(created.id), before: { disabledAt: null } });
    expect((await lastAudit("promo_code.disable"))!.after!.disabledAt).toEqual(expect.any(String));

    await setPromoCodeDisabled(t.db, actor, created.id, false);
    expect(await lastAudit("promo_code.enable")).toMatchObject({ targetId: String(created.id), after: { disabledAt: null } });
    await expect(verifyGift(t.db, token, giftBody("SWITCH"), ORIGIN)).resolves.toMatchObject({ discountAmount: expect.any(Number) });
  });

  it("lists codes with their state, uses and the revenue of their paid and refunded orders, paged in the database", async () => {
    const created = await createPromoCode(t.db, actor, promoCodeCreateSchema.parse(promoForm({ code: "REVENUE", maxUses: "5" })));
    const paid = await verifyGift(t.db, token, giftBody("REVENUE"), ORIGIN);
    await payIntent(t.db, paid.intentId, { provider: "sandbox", providerPaymentId: `sbx_${paid.intentId.slice(0, 8)}`, origin: ORIGIN });
    await verifyGift(t.db, token, giftBody("REVENUE"), ORIGIN); // unpaid: a use, no revenue
    const { items } = await listPromoCodes(t.db, { q: "revenue", page: 1, pageSize: 10 });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: created.id,
      uses: 2,
      paidCount: 1,
      paidAmount: paid.paymentAmount,
      discountAmount: paid.discountAmount,
      refundedCount: 0,
    });
    const states = async (state: "used_up" | "expired" | "scheduled" | "disabled") =>
      (await listPromoCodes(t.db, { state, page: 1, pageSize: 50 })).items.map((i) => i.code);
    expect(await states("used_up")).toContain("USEDUP");
    expect(await states("expired")).toContain("EXPIRED2025");
    expect(await states("scheduled")).toContain("FUTURE30");
    const firstPage = await listPromoCodes(t.db, { page: 1, pageSize: 2 });
    expect(firstPage.items).toHaveLength(2);
    expect(firstPage.total).toBeGreaterThan(5);
  });
});

describe("gear stock", () => {
  const itemId = async (item: string) =>
    (await t.db.execute<{ id: number }>(sql`SELECT id FROM gear_items WHERE item = ${item}`)).rows[0]!.id;

  it("sets and adds stock, audited, and lists held and sold units", async () => {
    const id = await itemId("arcana-juggernaut");
    await reserveGear(t.db, token, gearBody("arcana-juggernaut", "570"), ORIGIN);
    const adjust = (mode: "set" | "add", amount: string) =>
      adjustGearStock(t.db, actor, gearStockAdjustSchema.parse({ itemId: id, mode, amount }));
    await expect(adjust("set", "20")).resolves.toEqual({ stock: 20, reserved: 1 });
    await expect(adjust("add", "-5")).resolves.toEqual({ stock: 15, reserved: 1 });
    expect(await lastAudit("gear.stock")).toMatchObject({
      targetType: "gear_item",
      targetId: String(id),
      before: { stock: 20 },
      after: { stock: 15 },
      note: "-5",
    });
    await expect(adjust("set", "0")).rejects.toMatchObject({ reason: "stock_below_reserved", details: { reserved: 1 } });
    await expect(adjust("add", "-15")).rejects.toMatchObject({ reason: "stock_below_reserved" });
    const { items } = await listGearStock(t.db, { platform: 570, page: 1, pageSize: 50 });
    expect(items.find((i) => i.id === id)).toMatchObject({ stock: 15, reserved: 1, sold: 0 });
  });

  it("never lets parallel decrements take the stock below zero", async () => {
    const { id } = await createGearItem(
      t.db,
      actor,
      gearItemCreateSchema.parse({ platform: "730", item: "race", title: "Race", price: "10", stock: "5" }),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => adjustGearStock(t.db, actor, { itemId: id, mode: "add", amount: -1 })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ reason: "stock_below_reserved" });
    const { rows } = await t.db.execute<{ stock: number }>(sql`SELECT stock FROM gear_items WHERE id = ${id}`);
    expect(rows[0]!.stock).toBe(0);
  });

  it("adds an item, audited, with its price in roubles; refuses a taken key and an unknown platform", async () => {
    const input = gearItemCreateSchema.parse({ platform: "730", item: "new-knife", title: "Knife", price: "1 250,50", stock: "3" });
    const { id } = await createGearItem(t.db, actor, input);
    expect(await lastAudit("gear.create")).toMatchObject({ targetId: String(id), after: { item: "new-knife", price: 125050, stock: 3 } });
    await expect(reserveGear(t.db, token, gearBody("new-knife"), ORIGIN)).resolves.toMatchObject({ paymentAmount: expect.any(Number) });
    await expect(createGearItem(t.db, actor, input)).rejects.toMatchObject({ reason: "gear_item_taken", param: "item" });
    await expect(createGearItem(t.db, actor, { ...input, platform: 2_000_000_000 })).rejects.toMatchObject({
      reason: "platform_not_found",
    });
  });
});

describe("the catalog", () => {
  const catalog = (query: Record<string, string> = {}) => listCatalog(t.db, catalogQuerySchema.parse({ limit: "100", ...query }), ORIGIN);

  it("hides a game: not listed, not counted, not on its page, not sold (gift or gear); showing it brings it all back", async () => {
    clearCatalogCache();
    const before = await catalog();
    const beforeRU = await catalog({ giftableTo: "RU" });
    expect(before.games.map((g) => g.appId)).toContain(730);

    // 730 (free, not giftable) sells gear; 620 is giftable to RU.
    await setGameHidden(t.db, actor, 730, true);
    await setGameHidden(t.db, actor, 620, true);
    expect(await lastAudit("game.hide", "730")).toMatchObject({
      targetType: "game",
      targetId: "730",
      before: { hidden: false },
      after: { hidden: true },
    });
    const hidden = await catalog();
    expect(hidden.games.map((g) => g.appId)).not.toContain(730);
    expect(hidden.total).toBe(before.total - 2);
    expect((await catalog({ giftableTo: "RU" })).total).toBe(beforeRU.total - 1);
    expect((await catalog({ query: "counter" })).games.map((g) => g.appId)).not.toContain(730);
    await expect(getGameOrThrow(t.db, 730, "en", ORIGIN)).rejects.toMatchObject({ reason: "game_not_found" });
    await expect(getGameOrThrow(t.db, 620, "en", ORIGIN)).rejects.toMatchObject({ reason: "game_not_found" });
    await expect(verifyGift(t.db, token, giftBody(), ORIGIN)).rejects.toMatchObject({ reason: "game_not_found" });
    await expect(reserveGear(t.db, token, gearBody("sticker-capsule"), ORIGIN)).rejects.toMatchObject({ reason: "platform_not_found" });
    // Still found by staff.
    expect((await searchAdminGames(t.db, { q: "730", page: 1, pageSize: 10 })).games[0]).toMatchObject({ appId: 730, hidden: true });

    await setGameHidden(t.db, actor, 730, false);
    await setGameHidden(t.db, actor, 620, false);
    expect(await lastAudit("game.show")).toMatchObject({ targetId: "620", after: { hidden: false } });
    expect((await catalog()).total).toBe(before.total);
    expect((await catalog({ giftableTo: "RU" })).total).toBe(beforeRU.total);
    await expect(getGameOrThrow(t.db, 730, "en", ORIGIN)).resolves.toMatchObject({ appId: 730 });
    await expect(reserveGear(t.db, token, gearBody("sticker-capsule"), ORIGIN)).resolves.toMatchObject({ intentId: expect.any(String) });
    await expect(verifyGift(t.db, token, giftBody(), ORIGIN)).resolves.toMatchObject({ intentId: expect.any(String) });
  });

  it("edits a game's gift regions, audited, and the gift rule and the region filter follow", async () => {
    const before = await getAdminGame(t.db, 620);
    const regions = gameRegionsSchema.parse({ appId: 620, regions: "kz, ru" }).regions;
    expect(regions).toEqual(["KZ", "RU"]);
    await setGameRegions(t.db, actor, 620, ["KZ"]);
    expect(await lastAudit("game.regions")).toMatchObject({
      targetId: "620",
      before: { giftRegions: before!.game.giftRegions },
      after: { giftRegions: ["KZ"] },
    });
    await expect(verifyGift(t.db, token, giftBody(), ORIGIN)).rejects.toMatchObject({ reason: "region_not_giftable" });
    expect((await catalog({ giftableTo: "RU" })).games.map((g) => g.appId)).not.toContain(620);
    const after = await getAdminGame(t.db, 620);
    expect(after!.verdicts.map((v) => v.region)).toEqual(["KZ"]);
    await setGameRegions(t.db, actor, 620, regions);
    await expect(verifyGift(t.db, token, giftBody(), ORIGIN)).resolves.toMatchObject({ intentId: expect.any(String) });
    expect((await getAdminGame(t.db, 620))!.verdicts.find((v) => v.region === "RU")).toMatchObject({ refusal: null });
  });

  it("imports an uploaded file with progress, listing each game it could not take, audited with the counts", async () => {
    const sample = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/appdetails-sample.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const file = {
      ...sample,
      "4000001": { success: true, data: { type: "game", name: "", steam_appid: 4000001 } },
      // The file's rules let it through; the database refuses its package id (out of range for integer).
      "4000002": { success: true, data: { type: "game", name: "Overflow", steam_appid: 4000002, packages: [3_000_000_000] } },
    };
    const progress: [number, number][] = [];
    const result = await importCatalogFile(
      t.db,
      actor,
      { name: "sample.json", parsed: parseAppdetails(JSON.stringify(file)) },
      (done, total) => {
        progress.push([done, total]);
      },
    );
    expect(result.imported + result.updated).toBe(4);
    expect(progress.at(-1)).toEqual([5, 5]);
    const errors = Object.fromEntries(result.errors.first.map(({ entry, ...e }) => ["app" in entry ? entry.app : "?", e]));
    expect(errors["4000001"]).toEqual({ reason: "invalid_data", details: { fields: "name" } });
    expect(errors["999999"]).toEqual({ reason: "store_returned_nothing", details: {} });
    expect(errors["4000002"]).toEqual({ reason: "database_refused", details: { rule: "SQLSTATE 22003" } });
    // The refused game was undone alone: the rest of its batch is written.
    const written = await t.pool.query<{ app_id: number }>("SELECT app_id FROM games WHERE app_id = ANY($1::int[])", [
      [440, 1086940, 1174180, 3164330, 4000002],
    ]);
    expect(written.rows.map((r) => r.app_id).sort((a, b) => a - b)).toEqual([440, 1086940, 1174180, 3164330]);
    expect(await lastAudit("catalog.import")).toMatchObject({
      targetType: "catalog",
      targetId: "sample.json",
      after: { imported: result.imported, updated: result.updated, errors: result.errors.total },
    });
  });

  /** A file of `count` new games from app id `from`: more than one batch of the import (50). */
  const manyGames = (from: number, count: number) =>
    JSON.stringify(
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          String(from + i),
          { success: true, data: { type: "game", name: `Batch Game ${from + i}`, steam_appid: from + i } },
        ]),
      ),
    );
  const gamesFrom = async (from: number, count: number) =>
    (await t.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM games WHERE app_id BETWEEN $1 AND $2", [from, from + count - 1]))
      .rows[0]!.n;
  const importEntries = async (name: string) =>
    (await t.pool.query("SELECT 1 FROM audit_log WHERE action = 'catalog.import' AND target_id = $1", [name])).rowCount;

  it("writes nothing and records nothing when the import fails after its first batch", async () => {
    let batches = 0;
    await expect(
      importCatalogFile(t.db, actor, { name: "dies-midway.json", parsed: parseAppdetails(manyGames(4100000, 120)) }, () => {
        batches += 1;
        if (batches === 2) throw new Error("the connection went away");
      }),
    ).rejects.toThrow("the connection went away");
    expect(batches).toBe(2);
    expect(await gamesFrom(4100000, 120)).toBe(0);
    expect(await importEntries("dies-midway.json")).toBe(0);
  });

  it("writes no game when its audit entry cannot be written", async () => {
    // An actor whose account is gone: the entry's reference to it is refused at the very end.
    const ghost: Actor = { userId: "00000000-0000-4000-8000-00000000dead", label: "ghost@example.com" };
    await expect(
      importCatalogFile(t.db, ghost, { name: "unaudited.json", parsed: parseAppdetails(manyGames(4200000, 60)) }, () => {}),
    ).rejects.toThrow();
    expect(await gamesFrom(4200000, 60)).toBe(0);
    expect(await importEntries("unaudited.json")).toBe(0);
  });
});
