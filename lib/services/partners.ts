import "server-only";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { apiTokens, partners as partnersTable, users, webhookEndpoints } from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import type { ApiScope } from "@/lib/schemas/tokens";
import type { WebhookEventType } from "@/lib/schemas/webhooks";
import { recordAudit, type Actor } from "./audit";
import { revokeApiToken, STOREFRONT_GUEST_EMAIL } from "./tokens";

// Partners (/admin/partners): the accounts an admin made partners, and every other owner of API
// tokens or webhook endpoints beside them (a shopper's self-service tokens are seen there too),
// with their tokens, their endpoints and the deliveries to them (and to their intents' callback
// URLs) that fail. Never a token hash or a signing secret: the columns read here are listed one by one.
//
// Being a partner is what an admin grants, not what an account claims: only a partner's tokens may
// refund (lib/intents/refund-policy.ts) or hold `intents:refund`, and a partner's open holds are
// capped as its own (lib/services/holds.ts) instead of as a shopper's.

export { isPartner, lockPartner } from "./partner-status";

/**
 * Makes the account with this e-mail (any letter case) a partner, audited in the same transaction.
 * An account is never made here: a partner signs up first (or `token:create --owner E --partner`
 * makes one), so a typo cannot create a stray partner. Making a partner again changes nothing.
 */
export async function makePartner(db: Database, actor: Actor, email: string): Promise<{ userId: string; made: boolean }> {
  const address = email.trim();
  if (address.toLowerCase() === STOREFRONT_GUEST_EMAIL)
    throw new DomainError("invalid_field", { message: "the storefront's guest owner cannot be a partner" }, "email");
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${address})`)
      .limit(1);
    if (!user) throw new DomainError("account_not_found", {}, "email");
    const made = await tx
      .insert(partnersTable)
      .values({ userId: user.id, createdBy: actor.label })
      .onConflictDoNothing()
      .returning({ userId: partnersTable.userId });
    if (made.length === 0) return { userId: user.id, made: false };
    await recordAudit(tx, actor, {
      action: "partner.add",
      targetType: "user",
      targetId: user.id,
      before: { partner: false },
      after: { partner: true, holdCap: null },
    });
    return { userId: user.id, made: true };
  });
}

/** Ends an account's partnership, audited: its tokens refund nothing from then on and its holds count as a shopper's. */
export function removePartner(db: Database, actor: Actor, userId: string): Promise<{ removed: boolean }> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(partnersTable).where(eq(partnersTable.userId, userId)).returning({ holdCap: partnersTable.holdCap });
    if (!gone) return { removed: false };
    await recordAudit(tx, actor, {
      action: "partner.remove",
      targetType: "user",
      targetId: userId,
      before: { partner: true, holdCap: gone.holdCap },
      after: { partner: false },
    });
    return { removed: true };
  });
}

/** A partner's own cap on open holds, or null for the default (HOLD_LIMIT_PER_PARTNER); audited. */
export function setPartnerHoldCap(db: Database, actor: Actor, userId: string, holdCap: number | null): Promise<{ holdCap: number | null }> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ holdCap: partnersTable.holdCap })
      .from(partnersTable)
      .where(eq(partnersTable.userId, userId))
      .for("update");
    if (!before) throw new DomainError("partner_not_found", {});
    if (before.holdCap === holdCap) return { holdCap };
    await tx.update(partnersTable).set({ holdCap }).where(eq(partnersTable.userId, userId));
    await recordAudit(tx, actor, {
      action: "partner.hold_cap",
      targetType: "user",
      targetId: userId,
      before: { holdCap: before.holdCap },
      after: { holdCap },
    });
    return { holdCap };
  });
}

/** A delivery that failed for good, or one still retrying after a failed attempt. */
const FAILING = sql`(d.status = 'failed' OR (d.status = 'pending' AND d.attempt_count > 0))`;
/** The latest failing deliveries shown per endpoint (and per owner's callbacks). */
const FAILING_SHOWN = 3;

export interface PartnerToken {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Past its expiry by the database's clock. */
  expired: boolean;
}

export interface FailingDelivery {
  id: string;
  intentId: string | null;
  eventType: string;
  url: string;
  status: "pending" | "failed";
  attempts: number;
  createdAt: Date;
  /** The last attempt's answer: an HTTP status, or why there was none. */
  lastStatus: number | null;
  lastError: string | null;
}

export interface PartnerEndpoint {
  id: string;
  url: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  createdAt: Date;
  lastDeliveryAt: Date | null;
  lastDeliveryStatus: string | null;
  failingCount: number;
  failing: FailingDelivery[];
}

export interface Partner {
  userId: string;
  email: string;
  name: string | null;
  createdAt: Date;
  /** Set when an admin made the account a partner; null for an owner of tokens that is not one. */
  partner: { createdAt: Date; createdBy: string; holdCap: number | null } | null;
  /** Unpaid, unexpired intents of all its tokens that hold a gear unit or a promo-code use (what the hold caps count). */
  openHolds: number;
  tokens: PartnerToken[];
  endpoints: PartnerEndpoint[];
  /** Deliveries to the callbackUrl of this owner's intents. */
  callbackFailingCount: number;
  callbackFailing: FailingDelivery[];
}

export interface PartnerFilter {
  /** Part of the owner's e-mail. */
  email?: string;
  /** Partners only, or only the owners of tokens and endpoints that are not partners. */
  kind?: "partners" | "others";
  page?: number;
  pageSize?: number;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One page of owners, by e-mail, each with everything the partners page shows about them. */
export async function listPartners(db: Database, filter: PartnerFilter = {}): Promise<{ partners: Partner[]; total: number }> {
  const pageSize = Math.min(Math.max(filter.pageSize ?? 20, 1), 100);
  const page = Math.max(filter.page ?? 1, 1);
  const owns = sql`(EXISTS (SELECT 1 FROM api_tokens t WHERE t.user_id = u.id AND t.purpose = 'api')
      OR EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.user_id = u.id))`;
  const conditions: SQL[] = [
    filter.kind === "partners"
      ? sql`p.user_id IS NOT NULL`
      : filter.kind === "others"
        ? sql`p.user_id IS NULL AND ${owns}`
        : sql`(p.user_id IS NOT NULL OR ${owns})`,
  ];
  if (filter.email) conditions.push(sql`u.email ILIKE ${likePattern(filter.email)}`);
  const where = sql.join(conditions, sql` AND `);
  const from = sql`users u LEFT JOIN partners p ON p.user_id = u.id`;
  const { rows: owners } = await db.execute<{
    id: string;
    email: string;
    name: string | null;
    created_at: Date;
    partner_since: Date | null;
    partner_by: string | null;
    hold_cap: number | null;
    total: number;
  }>(sql`
    SELECT u.id, u.email, u.name, u.created_at, p.created_at AS partner_since, p.created_by AS partner_by, p.hold_cap,
      count(*) OVER ()::int AS total
    FROM ${from} WHERE ${where}
    ORDER BY lower(u.email), u.id
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`);
  if (owners.length === 0) {
    // Past the last page the window count is lost with the rows; count on its own.
    const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`);
    return { partners: [], total: rows[0]?.n ?? 0 };
  }
  const ids = owners.map((o) => o.id);
  const idList = sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;

  const [tokens, endpoints, failing, callbackCounts, holds] = await Promise.all([
    db
      .select({
        id: apiTokens.id,
        userId: apiTokens.userId,
        name: apiTokens.name,
        prefix: apiTokens.prefix,
        scopes: apiTokens.scopes,
        createdAt: apiTokens.createdAt,
        lastUsedAt: apiTokens.lastUsedAt,
        expiresAt: apiTokens.expiresAt,
        revokedAt: apiTokens.revokedAt,
        expired: sql<boolean>`coalesce(${apiTokens.expiresAt} <= now(), false)`,
      })
      .from(apiTokens)
      .where(and(inArray(apiTokens.userId, ids), eq(apiTokens.purpose, "api")))
      .orderBy(desc(apiTokens.createdAt)),
    db
      .select({
        id: webhookEndpoints.id,
        userId: webhookEndpoints.userId,
        url: webhookEndpoints.url,
        eventTypes: webhookEndpoints.eventTypes,
        enabled: webhookEndpoints.enabled,
        createdAt: webhookEndpoints.createdAt,
        lastDeliveryAt: sql<Date | null>`last.created_at`,
        lastDeliveryStatus: sql<string | null>`last.status`,
        failingCount: sql<number>`(SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = ${webhookEndpoints.id} AND ${FAILING})`,
      })
      .from(webhookEndpoints)
      .leftJoin(
        sql`LATERAL (SELECT d.created_at, d.status FROM webhook_deliveries d WHERE d.endpoint_id = ${webhookEndpoints.id}
          ORDER BY d.created_at DESC LIMIT 1) AS last`,
        sql`true`,
      )
      .where(inArray(webhookEndpoints.userId, ids))
      .orderBy(webhookEndpoints.createdAt),
    db.execute<{
      id: string;
      user_id: string;
      endpoint_id: string | null;
      intent_id: string | null;
      event_type: string;
      url: string;
      status: "pending" | "failed";
      attempt_count: number;
      created_at: Date;
      response_status: number | null;
      error: string | null;
    }>(sql`
      SELECT * FROM (
        SELECT d.id, d.user_id, d.endpoint_id, d.intent_id, d.event_type, d.url, d.status, d.attempt_count, d.created_at,
          a.response_status, a.error,
          row_number() OVER (PARTITION BY d.user_id, d.endpoint_id ORDER BY d.created_at DESC, d.id) AS n
        FROM webhook_deliveries d
        LEFT JOIN LATERAL (SELECT response_status, error FROM webhook_attempts w WHERE w.delivery_id = d.id
          ORDER BY w.attempt DESC LIMIT 1) a ON true
        WHERE d.user_id = ANY(${idList}) AND ${FAILING}
      ) ranked WHERE n <= ${FAILING_SHOWN}
      ORDER BY created_at DESC`),
    db.execute<{ user_id: string; n: number }>(sql`
      SELECT d.user_id, count(*)::int AS n FROM webhook_deliveries d
      WHERE d.user_id = ANY(${idList}) AND d.endpoint_id IS NULL AND ${FAILING}
      GROUP BY d.user_id`),
    // As lib/services/holds.ts counts them, through each token's open holds (intents_open_holds_token_idx).
    db.execute<{ user_id: string; n: number }>(sql`
      SELECT t.user_id, count(*) FILTER (WHERE i.expires_at > now())::int AS n
      FROM api_tokens t JOIN intents i ON i.token_id = t.id
        AND i.status = 'requires_payment' AND (i.gear_item_id IS NOT NULL OR i.promo_code_id IS NOT NULL)
      WHERE t.user_id = ANY(${idList})
      GROUP BY t.user_id`),
  ]);

  const failingOf = (userId: string, endpointId: string | null): FailingDelivery[] =>
    failing.rows
      .filter((f) => f.user_id === userId && f.endpoint_id === endpointId)
      .map((f) => ({
        id: f.id,
        intentId: f.intent_id,
        eventType: f.event_type,
        url: f.url,
        status: f.status,
        attempts: Number(f.attempt_count),
        createdAt: new Date(f.created_at),
        lastStatus: f.response_status === null ? null : Number(f.response_status),
        lastError: f.error,
      }));

  const partners = owners.map((o) => ({
    userId: o.id,
    email: o.email,
    name: o.name,
    createdAt: new Date(o.created_at),
    partner: o.partner_since
      ? { createdAt: new Date(o.partner_since), createdBy: o.partner_by ?? "", holdCap: o.hold_cap === null ? null : Number(o.hold_cap) }
      : null,
    tokens: tokens.filter((tk) => tk.userId === o.id).map(({ userId: _owner, ...tk }) => tk),
    endpoints: endpoints
      .filter((e) => e.userId === o.id)
      .map(({ userId: _owner, ...e }) => ({
        ...e,
        lastDeliveryAt: e.lastDeliveryAt ? new Date(e.lastDeliveryAt) : null,
        failingCount: Number(e.failingCount),
        failing: failingOf(o.id, e.id),
      })),
    openHolds: Number(holds.rows.find((h) => h.user_id === o.id)?.n ?? 0),
    callbackFailingCount: callbackCounts.rows.find((c) => c.user_id === o.id)?.n ?? 0,
    callbackFailing: failingOf(o.id, null),
  }));
  return { partners, total: Number(owners[0]?.total ?? 0) };
}

/**
 * Revokes a partner's API token from the back office: the token stops working at once (the
 * authentication cache forgets it), and the audit entry commits with the change. Revoking one
 * already revoked changes nothing and records nothing.
 */
export function revokePartnerToken(db: Database, actor: Actor, tokenId: string): Promise<{ revoked: boolean }> {
  return db.transaction(async (tx) => {
    const [token] = await tx
      .select({
        id: apiTokens.id,
        name: apiTokens.name,
        prefix: apiTokens.prefix,
        purpose: apiTokens.purpose,
        revokedAt: apiTokens.revokedAt,
        owner: users.email,
      })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.id, tokenId))
      .for("update", { of: apiTokens });
    if (!token || token.purpose !== "api") throw new DomainError("token_not_found", {});
    if (token.revokedAt) return { revoked: false };
    await revokeApiToken(tx, token.id);
    const [after] = await tx.select({ revokedAt: apiTokens.revokedAt }).from(apiTokens).where(eq(apiTokens.id, token.id));
    await recordAudit(tx, actor, {
      action: "token.revoke",
      targetType: "api_token",
      targetId: token.id,
      before: { name: token.name, prefix: token.prefix, owner: token.owner, revokedAt: null },
      after: { name: token.name, prefix: token.prefix, owner: token.owner, revokedAt: after?.revokedAt ?? null },
    });
    return { revoked: true };
  });
}
