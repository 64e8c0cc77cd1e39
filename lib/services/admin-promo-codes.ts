import "server-only";
import { eq, sql, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "@/lib/db/client";
import { promoCodes } from "@/lib/db/schema";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
import { DomainError } from "@/lib/errors";
import type { PromoCodeCreate, PromoCodeUpdate, PromoState } from "@/lib/schemas/admin-catalog";
import { recordAudit, type Actor } from "./audit";

// The back office's promo codes (/admin/promo-codes): the list with what each code brought in, and
// the changes staff make, each audited in its own transaction.

export type PromoCodeRow = typeof promoCodes.$inferSelect;

export interface PromoCodeListItem extends PromoCodeRow {
  /** Paid or fulfilled intents with the code: their count, what was paid and what the code took off. */
  paidCount: number;
  paidAmount: number;
  discountAmount: number;
  /** Refunded intents with the code, apart. */
  refundedCount: number;
  refundedAmount: number;
}

export interface PromoCodeFilter {
  /** Part of the code. */
  q?: string;
  state?: PromoState;
  page: number;
  pageSize: number;
}

/** The state promoState() gives, in SQL, so the list filters and pages in the database. */
const STATE_SQL = sql`CASE
    WHEN p.disabled_at IS NOT NULL THEN 'disabled'
    WHEN p.max_uses IS NOT NULL AND p.uses >= p.max_uses THEN 'used_up'
    WHEN p.valid_until IS NOT NULL AND p.valid_until <= now() THEN 'expired'
    WHEN p.valid_from IS NOT NULL AND p.valid_from > now() THEN 'scheduled'
    ELSE 'active' END`;

interface ListRow extends Record<string, unknown> {
  id: number;
  code: string;
  kind: "percent" | "fixed";
  value: number;
  applies_to: "all" | "gifts" | "gear";
  app_ids: number[] | null;
  valid_from: Date | null;
  valid_until: Date | null;
  max_uses: number | null;
  uses: number;
  disabled_at: Date | null;
  created_at: Date;
  paid_count: number;
  paid_amount: string;
  discount_amount: string;
  refunded_count: number;
  refunded_amount: string;
}

const toDate = (v: Date | string | null) => (v === null ? null : new Date(v));

/** Newest first; filtered, counted and paged in the database. */
export async function listPromoCodes(db: Database, filter: PromoCodeFilter): Promise<{ items: PromoCodeListItem[]; total: number }> {
  const where: SQL[] = [];
  if (filter.q) where.push(sql`p.code LIKE ${`%${filter.q.toUpperCase().replace(/[\\%_]/g, "\\$&")}%`}`);
  if (filter.state) where.push(sql`${STATE_SQL} = ${filter.state}`);
  const whereSql = where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
  const [page, count] = await Promise.all([
    db.execute<ListRow>(sql`
      SELECT p.*, s.*
      FROM (SELECT p.* FROM promo_codes p ${whereSql} ORDER BY p.created_at DESC, p.id DESC
            LIMIT ${filter.pageSize} OFFSET ${(filter.page - 1) * filter.pageSize}) AS p
      CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE i.status IN ('paid', 'fulfilled'))::int AS paid_count,
               coalesce(sum(i.payment_amount) FILTER (WHERE i.status IN ('paid', 'fulfilled')), 0) AS paid_amount,
               coalesce(sum(i.discount_amount) FILTER (WHERE i.status IN ('paid', 'fulfilled')), 0) AS discount_amount,
               count(*) FILTER (WHERE i.status = 'refunded')::int AS refunded_count,
               coalesce(sum(i.payment_amount) FILTER (WHERE i.status = 'refunded'), 0) AS refunded_amount
        FROM intents i WHERE i.promo_code_id = p.id AND i.status IN ('paid', 'fulfilled', 'refunded')) AS s
      ORDER BY p.created_at DESC, p.id DESC`),
    db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM promo_codes p ${whereSql}`),
  ]);
  return {
    total: count.rows[0]?.total ?? 0,
    items: page.rows.map((r) => ({
      id: r.id,
      code: r.code,
      kind: r.kind,
      value: r.value,
      appliesTo: r.applies_to,
      appIds: r.app_ids,
      validFrom: toDate(r.valid_from),
      validUntil: toDate(r.valid_until),
      maxUses: r.max_uses,
      uses: r.uses,
      disabledAt: toDate(r.disabled_at),
      createdAt: new Date(r.created_at),
      paidCount: r.paid_count,
      // Sums of integer columns come back as numeric text; a code's revenue is far below 2^53 kopecks.
      paidAmount: Number(r.paid_amount),
      discountAmount: Number(r.discount_amount),
      refundedCount: r.refunded_count,
      refundedAmount: Number(r.refunded_amount),
    })),
  };
}

export async function getPromoCode(db: Database, id: number): Promise<PromoCodeRow | null> {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, id));
  return row ?? null;
}

/** What the audit log keeps of a code: its terms, not its usage counter (which checkouts move). */
function auditView(row: PromoCodeRow) {
  return {
    code: row.code,
    kind: row.kind,
    value: row.value,
    appliesTo: row.appliesTo,
    appIds: row.appIds,
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    maxUses: row.maxUses,
    disabledAt: row.disabledAt,
  };
}

const terms = (input: PromoCodeCreate) => ({
  code: input.code,
  kind: input.kind,
  value: input.value,
  appliesTo: input.appliesTo,
  appIds: input.appIds,
  validFrom: input.validFrom,
  validUntil: input.validUntil,
  maxUses: input.maxUses,
});

/** The unique index says whether a code is taken; its refusal becomes the form's field error. */
async function uniqueCode<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (sqlStateOf(err) === SQLSTATE.uniqueViolation) throw new DomainError("promo_code_taken", { code }, "code");
    throw err;
  }
}

export async function createPromoCode(db: Database, actor: Actor, input: PromoCodeCreate): Promise<PromoCodeRow> {
  return uniqueCode(input.code, () =>
    db.transaction(async (tx) => {
      const [row] = await tx.insert(promoCodes).values(terms(input)).returning();
      await recordAudit(tx, actor, { action: "promo_code.create", targetType: "promo_code", targetId: row!.id, after: auditView(row!) });
      return row!;
    }),
  );
}

async function lockPromoCode(tx: Transaction, id: number): Promise<PromoCodeRow> {
  const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for("update");
  if (!row) throw new DomainError("promo_code_not_found", { id }, "id");
  return row;
}

/**
 * Changes a code's terms. Its uses so far stay; a usage limit below them is refused (the row lock
 * keeps a checkout from using the code between the check and the write).
 */
export async function updatePromoCode(db: Database, actor: Actor, input: PromoCodeUpdate): Promise<PromoCodeRow> {
  return uniqueCode(input.code, () =>
    db.transaction(async (tx) => {
      const before = await lockPromoCode(tx, input.id);
      if (input.maxUses !== null && input.maxUses < before.uses)
        throw new DomainError("promo_code_limit_below_uses", { code: before.code, uses: before.uses }, "maxUses");
      const [after] = await tx.update(promoCodes).set(terms(input)).where(eq(promoCodes.id, input.id)).returning();
      await recordAudit(tx, actor, {
        action: "promo_code.update",
        targetType: "promo_code",
        targetId: input.id,
        before: auditView(before),
        after: auditView(after!),
      });
      return after!;
    }),
  );
}

/** Switches a code off (checkouts then refuse it as unknown) or back on; doing it twice changes nothing more. */
export async function setPromoCodeDisabled(db: Database, actor: Actor, id: number, disabled: boolean): Promise<PromoCodeRow> {
  return db.transaction(async (tx) => {
    const before = await lockPromoCode(tx, id);
    if ((before.disabledAt !== null) === disabled) return before;
    const [after] = await tx
      .update(promoCodes)
      .set({ disabledAt: disabled ? sql`now()` : null })
      .where(eq(promoCodes.id, id))
      .returning();
    await recordAudit(tx, actor, {
      action: disabled ? "promo_code.disable" : "promo_code.enable",
      targetType: "promo_code",
      targetId: id,
      before: auditView(before),
      after: auditView(after!),
    });
    return after!;
  });
}
