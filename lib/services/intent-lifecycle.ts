import "server-only";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { DbExecutor, Transaction } from "@/lib/db/client";
import { apiTokens, deliveries, games, gearItems, intentEvents, intents, packages, promoCodes, webhookEndpoints } from "@/lib/db/schema";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";
import { DomainError } from "@/lib/errors";
import { CURRENCY } from "@/lib/money";
import { canTransition, paymentStatusOf, type IntentStatus, type RefundReason } from "@/lib/intents/states";
import type { MailKind } from "@/lib/mail/kinds";
import { enqueueIntentMail } from "@/lib/mail/outbox";
import { paymentPageUrl } from "@/lib/payments/paths";
import { isUuid } from "@/lib/schemas/common";
import type { WebhookEventType } from "@/lib/webhooks/events";
import { configuredOrigin } from "@/lib/http/public-origin";
import type { PublicIntent, TimelineEntry } from "@/lib/schemas/intents";
import { ownershipOf, type AuthToken } from "./tokens";
import { createDelivery } from "./delivery";
import { enqueueIntentEvent } from "./webhook-outbox";

/** Unpaid and past its time, judged by the database clock, the one the triggers use. */
const lapsed = sql<boolean>`(${intents.status} = 'requires_payment' AND ${intents.expiresAt} <= now())`;

const viewColumns = {
  id: intents.id,
  kind: intents.kind,
  status: intents.status,
  lapsed,
  /** By the database clock too, so the payment page's countdown agrees with what paying allows. */
  secondsLeft: sql<number>`greatest(0, floor(extract(epoch FROM ${intents.expiresAt} - now())))::int`,
  ownerId: apiTokens.userId,
  appId: intents.appId,
  gameTitle: games.title,
  gameTitleRu: games.titleRu,
  packageId: intents.packageId,
  edition: packages.title,
  giftRegion: intents.giftRegion,
  inviteUrl: intents.inviteUrl,
  recipientSteamId: intents.recipientSteamId,
  gearItem: gearItems.item,
  gearTitle: gearItems.title,
  account: intents.account,
  tradeLink: intents.tradeLink,
  storeId: intents.storeId,
  email: intents.email,
  feeMode: intents.feeMode,
  promoCode: promoCodes.code,
  intentAmount: intents.intentAmount,
  discountAmount: intents.discountAmount,
  feeAmount: intents.feeAmount,
  paymentAmount: intents.paymentAmount,
  currency: intents.currency,
  attribution: intents.attribution,
  successUrl: intents.successUrl,
  failureUrl: intents.failureUrl,
  callbackUrl: intents.callbackUrl,
  createdAt: intents.createdAt,
  expiresAt: intents.expiresAt,
  paidAt: intents.paidAt,
  fulfilledAt: intents.fulfilledAt,
  canceledAt: intents.canceledAt,
  expiredAt: intents.expiredAt,
  refundedAt: intents.refundedAt,
  refundReason: intents.refundReason,
  refundNote: intents.refundNote,
  paymentProvider: intents.paymentProvider,
  providerPaymentId: intents.providerPaymentId,
  deliveryId: deliveries.id,
  deliveryStatus: deliveries.status,
  deliveryStep: deliveries.step,
  deliveryFailure: deliveries.failureReason,
  deliveryProvider: deliveries.provider,
};

async function selectView(db: DbExecutor, where: SQL | undefined) {
  const rows = await db
    .select(viewColumns)
    .from(intents)
    .innerJoin(apiTokens, eq(apiTokens.id, intents.tokenId))
    .innerJoin(games, eq(games.appId, intents.appId))
    .leftJoin(packages, eq(packages.packageId, intents.packageId))
    .leftJoin(gearItems, eq(gearItems.id, intents.gearItemId))
    .leftJoin(promoCodes, eq(promoCodes.id, intents.promoCodeId))
    .leftJoin(deliveries, eq(deliveries.intentId, intents.id))
    .where(where)
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  // An unpaid intent past its time reads as expired before the sweep records it, with the same
  // expiredAt the record will get, so what a reader sees never changes when the sweep runs.
  const status: IntentStatus = row.lapsed ? "expired" : row.status;
  return { ...row, status, expiredAt: row.lapsed ? row.expiresAt : row.expiredAt };
}

/** An intent with what it buys, as of now (see `status`). */
export type IntentView = NonNullable<Awaited<ReturnType<typeof selectView>>>;

/** Every change of an intent's state and delivery, oldest first, as the timeline shows it. */
export async function loadTimeline(db: DbExecutor, intentId: string): Promise<TimelineEntry[]> {
  const rows = await db
    .select({ at: intentEvents.at, kind: intentEvents.kind, value: intentEvents.value, reason: intentEvents.reason })
    .from(intentEvents)
    .where(eq(intentEvents.intentId, intentId))
    .orderBy(asc(intentEvents.id));
  return rows.map((r) => ({ at: r.at.toISOString(), kind: r.kind, value: r.value, reason: r.reason }));
}

/** The recorded timeline as of now: expired the moment its time ran out, before the sweep records it. */
export function timelineOf(view: Pick<IntentView, "lapsed" | "expiresAt">, recorded: TimelineEntry[]): TimelineEntry[] {
  return view.lapsed && !recorded.some((e) => e.value === "expired")
    ? [...recorded, { at: view.expiresAt.toISOString(), kind: "status" as const, value: "expired", reason: "not paid in time" }]
    : recorded;
}

export function toPublicIntent(view: IntentView, origin: string, recorded: TimelineEntry[]): PublicIntent {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const timeline = timelineOf(view, recorded);
  return {
    id: view.id,
    kind: view.kind,
    status: view.status,
    paymentStatus: paymentStatusOf(view.status),
    deliveryStatus: view.deliveryStatus,
    deliveryId: view.deliveryId,
    deliveryStep: view.deliveryStep,
    deliveryFailureReason: view.deliveryFailure,
    intentAmount: view.intentAmount,
    discountAmount: view.discountAmount,
    feeAmount: view.feeAmount,
    paymentAmount: view.paymentAmount,
    currency: CURRENCY,
    feeMode: view.feeMode,
    promoCode: view.promoCode,
    gift:
      view.kind === "gift"
        ? {
            appId: view.appId,
            packageId: view.packageId!,
            title: view.gameTitle,
            edition: view.edition!,
            region: view.giftRegion!,
            inviteUrl: view.inviteUrl!,
            recipientSteamId64: view.recipientSteamId,
          }
        : null,
    gear:
      view.kind === "gear"
        ? {
            platform: String(view.appId),
            item: view.gearItem!,
            title: view.gearTitle!,
            account: view.account!,
            tradeLink: view.tradeLink,
            storeId: view.storeId,
          }
        : null,
    email: view.email,
    attribution: view.attribution,
    paymentUrl: paymentPageUrl(origin, view.id),
    successUrl: view.successUrl,
    failureUrl: view.failureUrl,
    callbackUrl: view.callbackUrl,
    createdAt: view.createdAt.toISOString(),
    expiresAt: view.expiresAt.toISOString(),
    paidAt: iso(view.paidAt),
    fulfilledAt: iso(view.fulfilledAt),
    canceledAt: iso(view.canceledAt),
    expiredAt: iso(view.expiredAt),
    refundedAt: iso(view.refundedAt),
    refundReason: view.refundReason,
    timeline,
  };
}

const intentNotFound = (intentId: string) => new DomainError("intent_not_found", { intentId: intentId.slice(0, 64) }, "intentId");

/**
 * An intent for the API: only the owner of the token that created it sees it, and of a guest's
 * intent only the token that created it (`ownershipOf`). Anyone else, a malformed id and an unknown
 * id all get the same 404, so ids cannot be probed.
 */
export async function getIntentForOwner(db: DbExecutor, token: AuthToken, intentId: string, origin: string): Promise<PublicIntent> {
  if (!isUuid(intentId)) throw intentNotFound(intentId);
  const { userId, tokenId } = ownershipOf(token);
  const view = await selectView(db, and(eq(intents.id, intentId), tokenId ? eq(intents.tokenId, tokenId) : eq(apiTokens.userId, userId)));
  if (!view) throw intentNotFound(intentId);
  return toPublicIntent(view, origin, await loadTimeline(db, view.id));
}

/** An intent for its payment page, where holding the link is the permission; null when there is none. */
export async function findIntentView(db: DbExecutor, intentId: string): Promise<IntentView | null> {
  if (!isUuid(intentId)) return null;
  return selectView(db, eq(intents.id, intentId));
}

/** A refused move: the intent is not in a state the move starts from. `current` is as of now. */
const stateConflict = (intentId: string, current: IntentStatus, target: IntentStatus) =>
  new DomainError("intent_state_conflict", { intentId, current, target });

interface MoveOptions {
  origin: string;
  /** Columns the move records beside the status (the provider's reference for a payment, a refund's reason). */
  set?: Partial<
    Pick<typeof intents.$inferInsert, "paymentProvider" | "providerPaymentId" | "refundReason" | "refundNote" | "providerRefundId">
  >;
  /** Why, and who, for the timeline entry the database writes for the move. */
  reason?: string;
  actor?: string;
}

/**
 * One state move in one transaction: lock the row, check the move against the table (clear errors),
 * update (the trigger checks again, stamps the time, moves stock and promo-code uses), and write the
 * callback and the shopper's mail into their outboxes in the same transaction, so a committed
 * payment always has its callback and its receipt.
 */
async function moveIntent(db: DbExecutor, intentId: string, target: IntentStatus, options: MoveOptions): Promise<IntentView> {
  if (!isUuid(intentId)) throw intentNotFound(intentId);
  return db.transaction(async (tx) => {
    const [locked] = await tx.select({ status: intents.status, lapsed }).from(intents).where(eq(intents.id, intentId)).for("update");
    if (!locked) throw intentNotFound(intentId);
    const current: IntentStatus = locked.lapsed ? "expired" : locked.status;
    if (!canTransition(current, target)) throw stateConflict(intentId, current, target);
    // Read by the timeline trigger (drizzle/0010) for the entry it writes; local to this transaction.
    await tx.execute(
      sql`SELECT set_config('giftkey.reason', ${options.reason ?? ""}, true), set_config('giftkey.actor', ${options.actor ?? ""}, true)`,
    );
    try {
      await tx
        .update(intents)
        .set({ status: target, ...options.set })
        .where(eq(intents.id, intentId));
    } catch (err) {
      // The row is locked and was checked, so only a clock edge or another writer outside this code gets here.
      const state = sqlStateOf(err);
      if (state === SQLSTATE.intentExpired) throw stateConflict(intentId, "expired", target);
      if (state === SQLSTATE.illegalMove) throw stateConflict(intentId, current, target);
      throw err;
    }
    // A paid intent always has its delivery: made in the payment's own transaction.
    if (target === "paid") await createDelivery(tx, intentId);
    const view = (await selectView(tx, eq(intents.id, intentId)))!;
    await recordEvent(tx, view, EVENT_OF[target], options.origin);
    // The shopper hears of every step that matters to them, in the move's transaction.
    const mail = mailFor(target, view.refundReason);
    if (mail) await enqueueIntentMail(tx, { intentId, kind: mail, origin: options.origin });
    return view;
  });
}

function mailFor(target: IntentStatus, refundReason: string | null): MailKind | null {
  if (target === "paid") return "receipt";
  if (target === "fulfilled") return "delivered";
  if (target === "refunded") return refundReason === "delivery_failed" ? "delivery_failed_refunded" : "refunded";
  return null;
}

/** The event each move is announced as; a move to requires_payment has none. */
const EVENT_OF: Partial<Record<IntentStatus, WebhookEventType>> = {
  paid: "intent.paid",
  fulfilled: "intent.delivered",
  refunded: "intent.refunded",
  canceled: "intent.canceled",
  expired: "intent.expired",
};

/**
 * Announces a change in its transaction: to the owner's subscribed endpoints, and a payment also to
 * the intent's `callbackUrl` (lib/services/webhook-outbox.ts). `data` is the intent as
 * GET /intents/{id} returns it right after the change.
 */
async function recordEvent(tx: Transaction, view: IntentView, type: WebhookEventType | undefined, origin: string): Promise<void> {
  if (!type) return;
  if (type !== "intent.paid" || !view.callbackUrl) {
    // Nothing to build a body for when no endpoint listens (the common case): one cheap query.
    const [listening] = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.userId, view.ownerId),
          eq(webhookEndpoints.enabled, true),
          sql`${type} = ANY (${webhookEndpoints.eventTypes})`,
        ),
      )
      .limit(1);
    if (!listening) return;
  }
  await enqueueIntentEvent(tx, {
    intentId: view.id,
    userId: view.ownerId,
    callbackUrl: view.callbackUrl,
    type,
    data: toPublicIntent(view, origin, await loadTimeline(tx, view.id)),
  });
}

/**
 * Delivery failed for good (lib/services/delivery.ts), in its transaction, before the refund that
 * follows: endpoints subscribed to `intent.delivery_failed` hear of it with the intent as it is then.
 */
export async function recordDeliveryFailed(tx: Transaction, intentId: string, origin: string): Promise<void> {
  const view = await selectView(tx, eq(intents.id, intentId));
  if (view) await recordEvent(tx, view, "intent.delivery_failed", origin);
}

export function payIntent(
  db: DbExecutor,
  intentId: string,
  payment: { provider: string; providerPaymentId: string; origin: string },
): Promise<IntentView> {
  return moveIntent(db, intentId, "paid", {
    origin: payment.origin,
    set: { paymentProvider: payment.provider, providerPaymentId: payment.providerPaymentId },
  });
}

/** The buyer declined: the gear unit and the promo-code use go back at once (the trigger). */
export function cancelIntent(db: DbExecutor, intentId: string, origin: string): Promise<IntentView> {
  return moveIntent(db, intentId, "canceled", { origin });
}

/** What was bought has been delivered. */
export function fulfilIntent(db: DbExecutor, intentId: string, origin: string, actor?: string): Promise<IntentView> {
  return moveIntent(db, intentId, "fulfilled", { origin, reason: "delivered", actor });
}

/** The money went back (lib/services/refunds.ts asks the provider first): stock and promo use return (the trigger). */
export function markIntentRefunded(
  db: DbExecutor,
  intentId: string,
  refund: { reason: RefundReason; note?: string; providerRefundId: string; origin: string; actor?: string },
): Promise<IntentView> {
  return moveIntent(db, intentId, "refunded", {
    origin: refund.origin,
    set: { refundReason: refund.reason, refundNote: refund.note ?? null, providerRefundId: refund.providerRefundId },
    reason: refund.note ? `${refund.reason}: ${refund.note}` : refund.reason,
    actor: refund.actor,
  });
}

/**
 * Records the expiry of unpaid intents past their time, oldest first, at most `limit` per call;
 * returns how many. Rows another transaction holds (being paid right now) are skipped, so several
 * sweepers never wait on each other or on a payment. Stock does not wait for this (a lapsed
 * reservation holds nothing); promo-code uses come back here (the trigger). The recorded expiry is
 * the `intent.expired` event: written to subscribed endpoints in the same transaction, built only
 * for intents whose owner has one listening.
 */
export async function expireDueIntents(
  db: DbExecutor,
  { limit = 500, origin = configuredOrigin() }: { limit?: number; origin?: string } = {},
): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string; announce: boolean }>(sql`
      WITH expired AS (
        UPDATE intents SET status = 'expired'
        WHERE id IN (
          SELECT id FROM intents
          WHERE status = 'requires_payment' AND expires_at <= now()
          ORDER BY expires_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING id, token_id)
      SELECT x.id, EXISTS (
        SELECT 1 FROM ${webhookEndpoints} e
        WHERE e.user_id = t.user_id AND e.enabled AND 'intent.expired' = ANY (e.event_types)) AS announce
      FROM expired x JOIN ${apiTokens} t ON t.id = x.token_id`);
    for (const { id } of rows.filter((r) => r.announce)) {
      const view = await selectView(tx, eq(intents.id, id));
      if (view) await recordEvent(tx, view, "intent.expired", origin);
    }
    return rows.length;
  });
}
