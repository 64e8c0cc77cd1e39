import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { DbExecutor, Transaction } from "@/lib/db/client";
import { games, gearItems, intents, mailMessages, packages, promoCodes } from "@/lib/db/schema";
import { configuredOrigin } from "@/lib/http/public-origin";
import type { Locale } from "@/lib/i18n/config";
import { orderLinkUrl } from "@/lib/orders/link";
import { mailDomain } from "./config";
import type { AccountMailKind, MailKind } from "./kinds";
import { renderIntentMail, type IntentMailData, type RenderedMail } from "./render";

export interface IntentMailRequest {
  intentId: string;
  kind: MailKind;
  /**
   * The store's public origin for the order link: the request's (lib/http/public-origin.ts) when
   * there is one; without one (the worker), PUBLIC_BASE_URL or http://localhost:PORT.
   */
  origin?: string;
}

/**
 * Writes a message about an intent into the mail outbox, rendered now in the shopper's language.
 * Call it inside the transaction that makes the event happen (the payment, the delivery, the
 * refund): the message exists if and only if that commits, and the worker sends it later. Its
 * content is fixed here, like a callback's body, so every attempt sends the same message with the
 * same Message-ID. One message per intent and kind: asking again returns the first one's id.
 */
export async function enqueueIntentMail(tx: Transaction, request: IntentMailRequest): Promise<string> {
  const existing = await findMessageId(tx, request);
  if (existing) return existing;
  const data = await intentMailData(tx, request);
  const rendered = await renderIntentMail(data);
  const id = randomUUID();
  const [row] = await tx
    .insert(mailMessages)
    .values({
      id,
      intentId: request.intentId,
      kind: request.kind,
      recipient: data.email,
      locale: data.locale,
      ...rendered,
      messageId: `<${id}@${mailDomain()}>`,
    })
    .onConflictDoNothing({ target: [mailMessages.intentId, mailMessages.kind] })
    .returning({ id: mailMessages.id });
  if (row) return row.id;
  // Another transaction enqueued the same message between our look and our insert.
  const raced = await findMessageId(tx, request);
  if (!raced) throw new Error("the message was not recorded");
  return raced;
}

/**
 * Writes a message about the account itself (the e-mail confirmation) into the outbox, already
 * rendered; like an order's mail, inside the transaction that makes it due. Each call is a new
 * message: asking for a confirmation again sends another.
 */
export async function enqueueAccountMail(
  tx: Transaction,
  message: { userId: string; kind: AccountMailKind; recipient: string; locale: Locale; rendered: RenderedMail },
): Promise<string> {
  const id = randomUUID();
  await tx.insert(mailMessages).values({
    id,
    userId: message.userId,
    kind: message.kind,
    recipient: message.recipient,
    locale: message.locale,
    ...message.rendered,
    messageId: `<${id}@${mailDomain()}>`,
  });
  return id;
}

async function findMessageId(db: DbExecutor, { intentId, kind }: IntentMailRequest): Promise<string | null> {
  const [row] = await db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(and(eq(mailMessages.intentId, intentId), eq(mailMessages.kind, kind)));
  return row?.id ?? null;
}

/** What a message about the intent says, read from the database as of the caller's transaction. */
export async function intentMailData(db: DbExecutor, { intentId, kind, origin }: IntentMailRequest): Promise<IntentMailData> {
  const [row] = await db
    .select({
      locale: intents.locale,
      email: intents.email,
      kind: intents.kind,
      gameTitle: games.title,
      gameTitleRu: games.titleRu,
      edition: packages.title,
      giftRegion: intents.giftRegion,
      inviteUrl: intents.inviteUrl,
      gearTitle: gearItems.title,
      account: intents.account,
      promoCode: promoCodes.code,
      feeMode: intents.feeMode,
      intentAmount: intents.intentAmount,
      discountAmount: intents.discountAmount,
      feeAmount: intents.feeAmount,
      paymentAmount: intents.paymentAmount,
      paidAt: intents.paidAt,
    })
    .from(intents)
    .innerJoin(games, eq(games.appId, intents.appId))
    .leftJoin(packages, eq(packages.packageId, intents.packageId))
    .leftJoin(gearItems, eq(gearItems.id, intents.gearItemId))
    .leftJoin(promoCodes, eq(promoCodes.id, intents.promoCodeId))
    .where(eq(intents.id, intentId));
  if (!row) throw new Error(`no intent ${intentId} to write mail about`);
  const gameTitle = row.locale === "ru" ? (row.gameTitleRu ?? row.gameTitle) : row.gameTitle;
  return {
    kind,
    locale: row.locale,
    intentId,
    email: row.email,
    gameTitle,
    item:
      row.kind === "gift"
        ? {
            kind: "gift",
            // The main package is often titled as the game itself: no edition line then.
            edition: row.edition && row.edition !== row.gameTitle ? row.edition : null,
            region: row.giftRegion!,
            inviteUrl: row.inviteUrl!,
          }
        : { kind: "gear", title: row.gearTitle!, account: row.account! },
    amounts: {
      price: row.intentAmount,
      discount: row.discountAmount,
      promoCode: row.promoCode,
      fee: row.feeAmount,
      feeMode: row.feeMode,
      total: row.paymentAmount,
    },
    paidAt: row.paidAt,
    orderUrl: orderLinkUrl(origin ?? configuredOrigin(), intentId),
  };
}
