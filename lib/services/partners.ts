import "server-only";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { apiTokens, users, webhookEndpoints } from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import type { ApiScope } from "@/lib/schemas/tokens";
import type { WebhookEventType } from "@/lib/schemas/webhooks";
import { recordAudit, type Actor } from "./audit";
import { revokeApiToken } from "./tokens";

// Partners (/admin/partners): every owner of API tokens or webhook endpoints, with their tokens,
// their endpoints and the deliveries to them (and to their intents' callback URLs) that fail.
// Never a token hash or a signing secret: the columns read here are listed one by one.

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
  tokens: PartnerToken[];
  endpoints: PartnerEndpoint[];
  /** Deliveries to the callbackUrl of this owner's intents. */
  callbackFailingCount: number;
  callbackFailing: FailingDelivery[];
}

export interface PartnerFilter {
  /** Part of the owner's e-mail. */
  email?: string;
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
  const conditions: SQL[] = [
    sql`(EXISTS (SELECT 1 FROM api_tokens t WHERE t.user_id = u.id AND t.purpose = 'api')
      OR EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.user_id = u.id))`,
  ];
  if (filter.email) conditions.push(sql`u.email ILIKE ${likePattern(filter.email)}`);
  const where = sql.join(conditions, sql` AND `);
  const { rows: owners } = await db.execute<{ id: string; email: string; name: string | null; created_at: Date; total: number }>(sql`
    SELECT u.id, u.email, u.name, u.created_at, count(*) OVER ()::int AS total
    FROM users u WHERE ${where}
    ORDER BY lower(u.email), u.id
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`);
  if (owners.length === 0) {
    // Past the last page the window count is lost with the rows; count on its own.
    const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM users u WHERE ${where}`);
    return { partners: [], total: rows[0]?.n ?? 0 };
  }
  const ids = owners.map((o) => o.id);
  const idList = sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;

  const [tokens, endpoints, failing, callbackCounts] = await Promise.all([
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
    tokens: tokens.filter((tk) => tk.userId === o.id).map(({ userId: _owner, ...tk }) => tk),
    endpoints: endpoints
      .filter((e) => e.userId === o.id)
      .map(({ userId: _owner, ...e }) => ({
        ...e,
        lastDeliveryAt: e.lastDeliveryAt ? new Date(e.lastDeliveryAt) : null,
        failingCount: Number(e.failingCount),
        failing: failingOf(o.id, e.id),
      })),
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
