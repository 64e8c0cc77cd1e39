import "server-only";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { coalesced } from "@/lib/db/coalesce";
import { insertRows } from "@/lib/db/insert-rows";
import { type DbExecutor, type Transaction, isTransaction } from "@/lib/db/client";
import { intents } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { metrics } from "@/lib/metrics";
import { CURRENCY, feeRateToBps, quote, type Discount, type FeeMode, type Quote } from "@/lib/money";
import { paymentPageUrl } from "@/lib/payments/paths";
import type { DomainError } from "@/lib/errors";
import { claimHoldSlot, holdClaim, holdRefusalOf, type Holder } from "./holds";
import { checkPromoCode, previewPromoCode, redeemPromoCode, type PromoTarget } from "./promo-codes";

const feeRateBps = feeRateToBps(env.FEE_RATE);

type IntentValues = typeof intents.$inferInsert;
/** An intent's row as inserted: its id chosen by the app; its expiry is the database's (EXPIRES_AT). */
type IntentRow = Omit<IntentValues, "expiresAt"> & { id: string };

export interface IntentInput {
  price: number;
  feeMode: FeeMode;
  promoCode?: string;
  promoTarget: PromoTarget;
  /** Who asks: the intent's token, and what the open-holds caps count (lib/services/holds.ts). */
  holder: Holder;
  values: Omit<
    IntentValues,
    keyof Quote | "feeMode" | "promoCodeId" | "expiresAt" | "id" | "status" | "currency" | "createdAt" | "tokenId" | "clientKey"
  >;
}

export interface CreatedIntent {
  id: string;
  quote: Quote;
  expiresAt: Date;
}

/** What both creating endpoints answer with their 201: the amounts, until when they hold, and where to pay. */
export function intentCreated(intent: CreatedIntent, origin: string) {
  return {
    code: 201 as const,
    intentId: intent.id,
    intentAmount: intent.quote.intentAmount,
    intentCurrency: CURRENCY,
    paymentAmount: intent.quote.paymentAmount,
    paymentCurrency: CURRENCY,
    discountAmount: intent.quote.discountAmount,
    feeAmount: intent.quote.feeAmount,
    expiresAt: intent.expiresAt.toISOString(),
    paymentUrl: paymentPageUrl(origin, intent.id),
  };
}

/**
 * Prices a purchase (promo code, then fee) and records the intent. Every amount is computed here;
 * a client never sends one. An intent that holds something (a gear unit, a promo-code use) is
 * admitted by its holder's open-holds caps (lib/services/holds.ts) in the transaction that inserts
 * it: with a promo code, the code's check, the caps, the code's use and the intent share one
 * transaction (a savepoint inside the caller's); a reservation without one goes in a batch with
 * those that arrive meanwhile, whose one INSERT claims their slots. An intent that holds nothing
 * is one INSERT, batched too.
 */
export async function createIntent(db: DbExecutor, input: IntentInput): Promise<CreatedIntent> {
  const holds = input.values.kind === "gear" || Boolean(input.promoCode);
  let created: CreatedIntent;
  try {
    created = input.promoCode
      ? await db.transaction(async (tx) => {
          // A wrong code is told as such, not as a full session: judge it before the holds.
          const promo = await checkPromoCode(tx, input.promoCode!, input.promoTarget);
          const clientKey = await claimHoldSlot(tx, { holder: input.holder, codeId: promo.id });
          return insertIntent(tx, input, clientKey);
        })
      : holds
        ? await insertHeldIntent(db, input)
        : await insertIntent(db, input, input.holder.token.purpose === "storefront" ? input.holder.clientKey : null);
  } catch (err) {
    throw holdRefusalOf(err) ?? err;
  }
  // Counted at insert: a caller's transaction that later rolls back (rare) still counts it.
  metrics.intentsCreated.inc({ kind: input.values.kind });
  return created;
}

/** The intent's row, priced, with the promo code's use counted (inside the caller's transaction when it has a code). */
async function rowOf(tx: DbExecutor, input: IntentInput, clientKey: string | null | undefined): Promise<{ row: IntentRow; priced: Quote }> {
  let discount: Discount | undefined;
  let promoCodeId: number | null = null;
  if (input.promoCode) {
    const redeemed = await redeemPromoCode(tx as Transaction, input.promoCode, input.promoTarget);
    discount = redeemed.discount;
    promoCodeId = redeemed.id;
  }
  const priced = priceWith(input.price, input.feeMode, discount);
  const row: IntentRow = {
    ...input.values,
    // Chosen here, so a batch that failed can be sent again row by row without doubling a row.
    id: randomUUID(),
    tokenId: input.holder.token.id,
    clientKey,
    ...priced,
    feeMode: input.feeMode,
    promoCodeId,
  };
  return { row, priced };
}

async function insertIntent(tx: DbExecutor, input: IntentInput, clientKey: string | null): Promise<CreatedIntent> {
  const { row, priced } = await rowOf(tx, input, clientKey);
  const inserted = await intentInsert[row.kind](tx, row);
  if (!inserted) throw new Error("the intent was not recorded");
  return { id: inserted.id, quote: priced, expiresAt: inserted.expiresAt };
}

/** A reservation without a promo code: its slot is claimed by the INSERT of the batch it joins (heldInsert). */
async function insertHeldIntent(db: DbExecutor, input: IntentInput): Promise<CreatedIntent> {
  // The client key is the claim's to set: it records the address only where an address cap applies.
  const { row, priced } = await rowOf(db, input, undefined);
  const inserted = await heldInsert(db, { row, holder: input.holder });
  return { id: inserted.id, quote: priced, expiresAt: inserted.expiresAt };
}

/** When an intent stops holding: by the database clock, so every server agrees. */
const EXPIRES_AT = `now() + make_interval(secs => ${env.INTENT_TTL_SECONDS})`;

/**
 * Inserts the intents in one statement (which commits them, outside a transaction); their ids and
 * expiries, in the rows' order. A transaction is drizzle's; the pool takes the statement as text
 * (lib/db/insert-rows.ts), since drizzle's insert builds a query object for every value of every row.
 * With `claim` (holdClaim of the rows' holders, in their order) the statement first claims their
 * open-hold slots (claim_hold_slots, drizzle/0026), once, and records each row's client key from
 * it; a cap that refuses any row fails the statement, and lib/db/coalesce.ts sends its rows again
 * one by one, so each hears its own answer.
 */
async function insertIntents(db: DbExecutor, rows: IntentRow[], claim?: string): Promise<{ id: string; expiresAt: Date }[]> {
  let inserted: { id: string; expiresAt: Date }[];
  if (isTransaction(db)) {
    const keys = claim
      ? (await db.execute<{ keys: (string | null)[] }>(sql`SELECT claim_hold_slots(${claim}::jsonb) AS keys`)).rows[0]!.keys
      : [];
    inserted = await db
      .insert(intents)
      .values(rows.map((row, i) => ({ ...row, ...(claim ? { clientKey: keys[i] ?? null } : {}), expiresAt: sql.raw(EXPIRES_AT) })))
      .returning({ id: intents.id, expiresAt: intents.expiresAt });
  } else {
    const query = insertRows(
      intents,
      rows,
      claim ? { expires_at: EXPIRES_AT, client_key: (i) => `(SELECT keys ->> ${i} FROM claim)` } : { expires_at: EXPIRES_AT },
      ["id", "expires_at"],
    );
    if (claim) {
      query.values.push(claim);
      query.text = `WITH claim AS MATERIALIZED (SELECT claim_hold_slots($${query.values.length}::jsonb) AS keys) ${query.text}`;
    }
    inserted = (await db.$client.query<{ id: string; expires_at: Date }>(query)).rows.map((r) => ({ id: r.id, expiresAt: r.expires_at }));
  }
  const byId = new Map(inserted.map((r) => [r.id, r]));
  return rows.map((row) => byId.get(row.id)!);
}

/**
 * Concurrent requests' intents, inserted together (lib/db/coalesce.ts); gifts apart from gear, so
 * a gift never waits behind an item's lock or a batch refused for stock.
 */
const intentInsert = {
  gift: coalesced((db: DbExecutor, rows: IntentRow[]) => insertIntents(db, rows)),
  gear: coalesced((db: DbExecutor, rows: IntentRow[]) => insertIntents(db, rows)),
};

interface HeldRow {
  row: IntentRow;
  holder: Holder;
}

/** Reservations without a promo code, together: one INSERT claims their slots and records them. */
const heldInsert = coalesced((db: DbExecutor, items: HeldRow[]) =>
  insertIntents(
    db,
    items.map((item) => item.row),
    holdClaim(items.map((item) => ({ holder: item.holder }))),
  ),
);

/** The amounts for `price`: the one pricing rule that creating an intent and a quote share. */
function priceWith(price: number, feeMode: FeeMode, discount?: Discount): Quote {
  return quote(price, feeMode, feeRateBps, discount);
}

export interface PurchaseQuote {
  /** Null when there is nothing to pay for yet (the game has no price). */
  quote: Quote | null;
  feeMode: FeeMode;
  /** Every refusal creating the intent would now meet, in the order it would meet them. */
  refusals: DomainError[];
}

/**
 * Prices a purchase as createIntent would, without writing or locking anything: the promo code is
 * previewed (a wrong or used-up one is a refusal, and the amounts are then those without it).
 * The caller's own refusals go `before` the code's (a gift's release and region) or `after` it
 * (gear's stock, which the insert meets last), so they are listed in the order creating meets them.
 */
export async function quoteIntent(
  db: DbExecutor,
  input: {
    price: number | null;
    feeMode: FeeMode;
    promoCode?: string;
    promoTarget: PromoTarget;
    before?: DomainError[];
    after?: DomainError[];
  },
): Promise<PurchaseQuote> {
  const refusals = [...(input.before ?? [])];
  let discount: Discount | undefined;
  if (input.promoCode) {
    const preview = await previewPromoCode(db, input.promoCode, input.promoTarget);
    if ("refusal" in preview) refusals.push(preview.refusal);
    else discount = preview.discount;
  }
  refusals.push(...(input.after ?? []));
  return {
    quote: input.price === null ? null : priceWith(input.price, input.feeMode, discount),
    feeMode: input.feeMode,
    refusals,
  };
}
