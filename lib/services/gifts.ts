import "server-only";
import { sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import { batchKeys, coalesced, inKeyOrder } from "@/lib/db/coalesce";
import { UNDECODABLE_INVITE_MESSAGE, type GiftQuoteRequest, type GiftVerifyRequest, type GiftVerifyResponse } from "@/lib/schemas/gifts";
import { convertedKopecks, giftRefusals, type RegionOffer } from "@/lib/catalog/availability";
import { env } from "@/lib/env";
import { inviteRecipient, type InviteRecipient } from "@/lib/steam";
import { DomainError } from "@/lib/errors";
import type { AuthToken } from "./tokens";
import { CURRENT_RATE, toOffer } from "./giftability";
import { createIntent, intentCreated, quoteIntent, type PurchaseQuote } from "./intents";

interface GiftTargetRow extends Record<string, unknown> {
  coming_soon: boolean;
  gift_regions: string[];
  package_id: number | null;
  price_final: number | null;
  /** The edition's offer in the asked region, when it has one (regional price, restriction, rate). */
  offer_currency: string | null;
  offer_amount: number | null;
  offer_restricted: boolean | null;
  offer_rate: string | null;
}

interface GiftTargetKey {
  appId: number;
  packageId: number | null;
  region: string | null;
}

/**
 * Each key's game, its edition (the asked one, or the main one) and, for a region, the edition's
 * offer there, in one round trip for all of them; undefined where the store has no such game.
 */
async function giftTargets(db: DbExecutor, keys: GiftTargetKey[]): Promise<(GiftTargetRow | undefined)[]> {
  const asked = batchKeys(keys.map((k) => ({ app_id: k.appId, package_id: k.packageId, region: k.region })));
  const { rows } = await db.execute<GiftTargetRow & { i: number }>(
    sql`SELECT k.i, g.coming_soon, g.gift_regions, p.package_id, p.price_final,
               rp.currency AS offer_currency, rp.amount AS offer_amount, rp.restricted AS offer_restricted,
               rate.rub_micros_per_unit AS offer_rate
        FROM jsonb_to_recordset(${asked}::jsonb) AS k(i int, app_id int, package_id int, region text)
        JOIN games g ON g.app_id = k.app_id AND NOT g.hidden
        LEFT JOIN packages p ON p.app_id = g.app_id
          AND (CASE WHEN k.package_id IS NULL THEN p.is_main ELSE p.package_id = k.package_id END)
        LEFT JOIN package_region_prices rp ON rp.package_id = p.package_id AND rp.region = k.region
        ${CURRENT_RATE}`,
  );
  return inKeyOrder(keys.length, rows);
}

/** Concurrent verifies' and quotes' lookups, sent together (lib/db/coalesce.ts). */
const giftLookup = coalesced(giftTargets);

/**
 * The gift's edition and price, and every reason it cannot be bought now for `region` (in the
 * order a shopper should hear them). Unknown games and editions leave nothing to price: thrown.
 * verifyGift and quoteGift both ask here, so a quote and the purchase judge alike.
 */
async function checkGift(db: DbExecutor, appId: number, packageId: number | null, region: string | undefined) {
  const game = await giftLookup(db, { appId, packageId, region: region ?? null });
  // A game staff hid is not sold: it answers as one the store does not have.
  if (!game) throw new DomainError("game_not_found", { appId }, "item");
  if (game.package_id === null)
    throw new DomainError("edition_not_found", { appId, packageId }, packageId === null ? "item" : "target.packageId");
  const editionId = game.package_id;
  const offer: RegionOffer | undefined =
    game.offer_currency === null
      ? undefined
      : toOffer({
          region: region!,
          currency: game.offer_currency,
          amount: game.offer_amount,
          restricted: game.offer_restricted!,
          rub_micros_per_unit: game.offer_rate,
        });
  const maxGapPercent = env.GIFT_PRICE_GAP;
  const reasons = giftRefusals(
    { comingSoon: game.coming_soon, priced: game.price_final !== null, giftRegions: game.gift_regions },
    region,
    game.price_final === null ? undefined : { storePrice: game.price_final, offer, maxGapPercent },
  );
  const param = "target.region";
  const refusals = reasons.map((reason) => {
    if (reason === "region_not_giftable")
      return new DomainError(reason, { appId, region: region ?? "", allowed: game.gift_regions }, param);
    if (reason === "region_restricted") return new DomainError(reason, { appId, packageId: editionId, region: region! }, param);
    if (reason === "region_price_gap") {
      const { currency, amount, rubMicrosPerUnit } = offer!;
      const convertedAmount = rubMicrosPerUnit === null ? null : convertedKopecks(amount!, rubMicrosPerUnit);
      const facts = {
        appId,
        packageId: editionId,
        region: region!,
        currency,
        amount: amount!,
        convertedAmount,
        storeAmount: game.price_final!,
        maxGapPercent,
      };
      return new DomainError(reason, facts, param);
    }
    return new DomainError(reason, { appId });
  });
  return { packageId: game.package_id, price: game.price_final, refusals };
}

/** Checks that the gift can be bought for the recipient's region and records an intent with the amount to pay. */
export async function verifyGift(
  db: DbExecutor,
  token: AuthToken,
  input: GiftVerifyRequest,
  origin: string,
  /** The client address's hold key (lib/services/holds.ts), for the store's own pages. */
  clientKey: string | null = null,
): Promise<GiftVerifyResponse> {
  const appId = input.item;
  const gift = await checkGift(db, appId, input.target.packageId ?? null, input.target.region);
  if (gift.refusals[0]) throw gift.refusals[0];
  // The schema refused a link that does not decode, so this names an account.
  const recipient = inviteRecipient(input.target.inviteUrl)!;

  const intent = await createIntent(db, {
    price: gift.price!,
    feeMode: input.fee,
    promoCode: input.code,
    promoTarget: { kind: "gifts", appId },
    holder: { token, clientKey },
    values: {
      kind: "gift",
      appId,
      packageId: gift.packageId,
      giftRegion: input.target.region,
      inviteUrl: input.target.inviteUrl,
      recipientSteamId: recipient.steamId64,
      email: input.email,
      successUrl: input.successUrl,
      failureUrl: input.failureUrl,
      callbackUrl: input.callbackUrl,
      attribution: input.attribution,
      locale: input.locale,
    },
  });
  return { ...intentCreated(intent, origin), recipient };
}

/**
 * What verifyGift would charge for this body and every refusal it would meet, creating and holding
 * nothing; with an invite link, the friend it names (as verify answers it) or, when its code names
 * no account, that refusal first, where verify would meet it.
 */
export async function quoteGift(db: DbExecutor, input: GiftQuoteRequest): Promise<PurchaseQuote & { recipient: InviteRecipient | null }> {
  const inviteUrl = input.target?.inviteUrl;
  const recipient = inviteUrl === undefined ? null : inviteRecipient(inviteUrl);
  const link =
    inviteUrl !== undefined && recipient === null
      ? [new DomainError("invite_link_undecodable", { message: UNDECODABLE_INVITE_MESSAGE }, "target.inviteUrl")]
      : [];
  const gift = await checkGift(db, input.item, input.target?.packageId ?? null, input.target?.region);
  const quote = await quoteIntent(db, {
    price: gift.price,
    feeMode: input.fee,
    promoCode: input.code,
    promoTarget: { kind: "gifts", appId: input.item },
    before: [...link, ...gift.refusals],
  });
  return { ...quote, recipient };
}
