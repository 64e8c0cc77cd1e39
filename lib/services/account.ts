import "server-only";
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Database, DbExecutor } from "@/lib/db/client";
import {
  apiTokens,
  games,
  gearItems,
  intents,
  packages,
  users,
  webhookAttempts,
  webhookDeliveries,
  type WEBHOOK_DELIVERY_STATUSES,
} from "@/lib/db/schema";
import { DomainError } from "@/lib/errors";
import type { ApiScope } from "@/lib/schemas/tokens";
import { STOREFRONT_GUEST_EMAIL, createApiToken, type CreatedToken } from "./tokens";

export interface IntentCallback {
  id: string;
  eventType: string;
  status: (typeof WEBHOOK_DELIVERY_STATUSES)[number];
  attemptCount: number;
  createdAt: Date;
  nextAttemptAt: Date;
  finishedAt: Date | null;
  /** The latest attempt's answer: HTTP status, or why there was none. */
  lastResponseStatus: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
}

export interface UserIntent {
  id: string;
  kind: "gift" | "gear";
  status: (typeof intents.$inferSelect)["status"];
  appId: number;
  gameTitle: string;
  gameTitleRu: string | null;
  /** The edition of a gift, or the gear item's title. */
  itemTitle: string | null;
  intentAmount: number;
  discountAmount: number;
  feeAmount: number;
  paymentAmount: number;
  attribution: Partial<Record<"utm_source" | "utm_medium" | "utm_campaign" | "utm_content" | "utm_term", string>> | null;
  /** Whom it goes to: a gift's recipient (SteamID64 when known, else the invite link) and region; gear's account. */
  recipientSteamId: string | null;
  inviteUrl: string | null;
  giftRegion: string | null;
  account: string | null;
  /** The token that created it; `storefront` ones are this site's own checkout. */
  tokenName: string;
  tokenPurpose: "api" | "storefront";
  callbackUrl: string | null;
  createdAt: Date;
  expiresAt: Date;
  paidAt: Date | null;
  fulfilledAt: Date | null;
  canceledAt: Date | null;
  expiredAt: Date | null;
  callbacks: IntentCallback[];
}

export interface UserIntentPage {
  intents: UserIntent[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Intents made with any of the user's tokens, their partner API tokens and this site's checkout
 * sessions alike, newest first, with the callbacks to its callbackUrl (endpoints keep their own log). `before` is the id of the last
 * intent of the previous page.
 */
export async function listUserIntents(
  db: Database,
  userId: string,
  page: { limit?: number; before?: string | null } = {},
): Promise<UserIntentPage> {
  return listIntents(db, eq(apiTokens.userId, userId), page);
}

/**
 * The orders a guest placed with the account's address (the checkout's e-mail, `intents.email`),
 * through the store's own pages without signing in, newest first: only once the account has
 * confirmed that address, which this query itself requires, so an account registered with someone
 * else's address never sees their orders.
 */
export async function listGuestIntentsForAccount(
  db: Database,
  userId: string,
  page: { limit?: number; before?: string | null } = {},
): Promise<UserIntentPage> {
  const guestOwner = sql`(SELECT id FROM ${users} WHERE lower(${users.email}) = ${STOREFRONT_GUEST_EMAIL})`;
  const confirmedAddress = sql`(SELECT lower(${users.email}) FROM ${users} WHERE ${users.id} = ${userId} AND ${users.emailConfirmedAt} IS NOT NULL)`;
  return listIntents(db, and(sql`${apiTokens.userId} = ${guestOwner}`, sql`lower(${intents.email}) = ${confirmedAddress}`)!, page);
}

async function listIntents(
  db: Database,
  whose: SQL,
  { limit = 20, before }: { limit?: number; before?: string | null },
): Promise<UserIntentPage> {
  const after =
    before && UUID.test(before)
      ? sql`(${intents.createdAt}, ${intents.id}) < (SELECT created_at, id FROM intents WHERE id = ${before})`
      : undefined;
  const rows = await db
    .select({
      id: intents.id,
      kind: intents.kind,
      status: intents.status,
      appId: intents.appId,
      gameTitle: games.title,
      gameTitleRu: games.titleRu,
      packageTitle: packages.title,
      gearTitle: gearItems.title,
      intentAmount: intents.intentAmount,
      discountAmount: intents.discountAmount,
      feeAmount: intents.feeAmount,
      paymentAmount: intents.paymentAmount,
      attribution: intents.attribution,
      recipientSteamId: intents.recipientSteamId,
      inviteUrl: intents.inviteUrl,
      giftRegion: intents.giftRegion,
      account: intents.account,
      tokenName: apiTokens.name,
      tokenPurpose: apiTokens.purpose,
      callbackUrl: intents.callbackUrl,
      createdAt: intents.createdAt,
      expiresAt: intents.expiresAt,
      paidAt: intents.paidAt,
      fulfilledAt: intents.fulfilledAt,
      canceledAt: intents.canceledAt,
      expiredAt: intents.expiredAt,
    })
    .from(intents)
    .innerJoin(apiTokens, eq(apiTokens.id, intents.tokenId))
    .innerJoin(games, eq(games.appId, intents.appId))
    .leftJoin(packages, eq(packages.packageId, intents.packageId))
    .leftJoin(gearItems, eq(gearItems.id, intents.gearItemId))
    .where(and(whose, after))
    .orderBy(desc(intents.createdAt), desc(intents.id))
    .limit(limit + 1);

  const page = rows.slice(0, limit);
  const callbacks = await listCallbacks(
    db,
    page.map((r) => r.id),
  );
  return {
    intents: page.map(({ packageTitle, gearTitle, ...r }) => ({
      ...r,
      itemTitle: r.kind === "gift" ? packageTitle : gearTitle,
      callbacks: callbacks.get(r.id) ?? [],
    })),
    nextBefore: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}

async function listCallbacks(db: Database, intentIds: string[]): Promise<Map<string, IntentCallback[]>> {
  const byIntent = new Map<string, IntentCallback[]>();
  if (intentIds.length === 0) return byIntent;
  const last = db
    .select({
      responseStatus: webhookAttempts.responseStatus,
      error: webhookAttempts.error,
      startedAt: webhookAttempts.startedAt,
    })
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, webhookDeliveries.id))
    .orderBy(desc(webhookAttempts.attempt))
    .limit(1)
    .as("last_attempt");
  const rows = await db
    .select({
      intentId: webhookDeliveries.intentId,
      id: webhookDeliveries.id,
      eventType: webhookDeliveries.eventType,
      status: webhookDeliveries.status,
      attemptCount: webhookDeliveries.attemptCount,
      createdAt: webhookDeliveries.createdAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      finishedAt: webhookDeliveries.finishedAt,
      lastResponseStatus: last.responseStatus,
      lastError: last.error,
      lastAttemptAt: last.startedAt,
    })
    .from(webhookDeliveries)
    .leftJoinLateral(last, sql`true`)
    .where(and(inArray(webhookDeliveries.intentId, intentIds), isNull(webhookDeliveries.endpointId)))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
  for (const { intentId, ...callback } of rows) {
    if (!intentId) continue;
    const list = byIntent.get(intentId) ?? [];
    list.push(callback);
    byIntent.set(intentId, list);
  }
  return byIntent;
}

/** Live partner tokens one account may hold; a leaked-and-forgotten pile is a risk, not a feature. */
export const MAX_ACTIVE_API_TOKENS = 50;

/**
 * A partner token for an account, within its cap of active tokens. The account's row is locked
 * while the tokens are counted and the new one inserted, so concurrent creations are counted one
 * at a time and never get past the cap.
 */
export function createAccountApiToken(
  db: Database,
  input: { userId: string; name: string; scopes: ApiScope[]; expiresAt: Date | null },
): Promise<CreatedToken> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for("update");
    if ((await countActiveApiTokens(tx, input.userId)) >= MAX_ACTIVE_API_TOKENS) {
      throw new DomainError("token_limit_reached", { max: MAX_ACTIVE_API_TOKENS });
    }
    return createApiToken(tx, input);
  });
}

export async function countActiveApiTokens(db: DbExecutor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiTokens)
    .where(
      and(
        eq(apiTokens.userId, userId),
        eq(apiTokens.purpose, "api"),
        sql`${apiTokens.revokedAt} IS NULL AND (${apiTokens.expiresAt} IS NULL OR ${apiTokens.expiresAt} > now())`,
      ),
    );
  return row?.n ?? 0;
}
