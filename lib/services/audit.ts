import "server-only";
import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/client";
import type { AuditAction, AuditRecord, AuditTargetType } from "@/lib/admin/audit-catalog";
import { auditLog } from "@/lib/db/schema";

/** Who made a back-office change: a staff member, or the staff CLI. */
export interface Actor {
  /** null for the CLI. */
  userId: string | null;
  /** The staff member's e-mail, or `cli`. */
  label: string;
}

export const CLI_ACTOR: Actor = { userId: null, label: "cli" };

/** Only what lib/admin/audit-catalog.ts lists: the log page has a name for each in both languages. */
export interface AuditEntryInput {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string | number;
  before?: AuditRecord | null;
  after?: AuditRecord | null;
  note?: string | null;
}

/**
 * Records a back-office change. Call it with the transaction that makes the change, so the change
 * and its entry commit together or not at all.
 */
export async function recordAudit(tx: DbExecutor, actor: Actor, entry: AuditEntryInput): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.userId,
    actor: actor.label,
    action: entry.action,
    targetType: entry.targetType,
    targetId: String(entry.targetId),
    before: toJson(entry.before),
    after: toJson(entry.after),
    note: entry.note ?? null,
  });
}

/** Dates as ISO strings, so before/after read the same in the log as in the API. */
function toJson(value: AuditRecord | null | undefined): Record<string, unknown> | null {
  if (!value) return null;
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
  /** Entries older than this id (the next page). */
  before?: number;
  limit?: number;
}

export type AuditEntry = typeof auditLog.$inferSelect;

/** Newest first, paged by id (keyset), filtered in the database. */
export async function listAudit(db: Database, filter: AuditFilter = {}): Promise<{ entries: AuditEntry[]; nextBefore: number | null }> {
  const limit = Math.min(Math.max(filter.limit ?? 50, 1), 200);
  const where: SQL[] = [];
  if (filter.actor) where.push(sql`lower(${auditLog.actor}) = lower(${filter.actor})`);
  if (filter.action)
    where.push(filter.action.includes(".") ? eq(auditLog.action, filter.action) : sql`${auditLog.action} LIKE ${`${filter.action}.%`}`);
  if (filter.targetType) where.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) where.push(eq(auditLog.targetId, filter.targetId));
  if (filter.from) where.push(gte(auditLog.at, filter.from));
  if (filter.to) where.push(lt(auditLog.at, filter.to));
  if (filter.before) where.push(lt(auditLog.id, filter.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  return { entries, nextBefore: rows.length > limit ? entries.at(-1)!.id : null };
}
