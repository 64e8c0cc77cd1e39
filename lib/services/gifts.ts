import "server-only";
import { sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import type { GiftVerifyRequest, GiftVerifyResponse } from "@/lib/schemas/gifts";
import { convertedKopecks, giftRefusal } from "@/lib/catalog/availability";
import { env } from "@/lib/env";
import { inviteRecipient } from "@/lib/steam";
import { DomainError } from "@/lib/errors";
import type { AuthToken } from "./tokens";
import { packageRegionOffers } from "./giftability";
import { createIntent, intentCreated } from "./intents";

interface GiftTargetRow extends Record<string, unknown> {
  coming_soon: boolean;
  gift_regions: string[];
  package_id: number | null;
  price_final: number | null;
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
  const packageId = input.target.packageId ?? null;
  const { rows } = await db.execute<GiftTargetRow>(
    sql`SELECT g.coming_soon, g.gift_regions, p.package_id, p.price_final
        FROM games g
        LEFT JOIN packages p ON p.app_id = g.app_id
          AND (CASE WHEN ${packageId}::int IS NULL THEN p.is_main ELSE p.package_id = ${packageId}::int END)
        WHERE g.app_id = ${appId} AND NOT g.hidden`,
  );
  const game = rows[0];
  if (!game) throw new DomainError("game_not_found", { appId }, "item");
  if (game.package_id === null)
    throw new DomainError("edition_not_found", { appId, packageId }, packageId === null ? "item" : "target.packageId");
  const region = input.target.region;
  const editionId = game.package_id;
  const offer = (await packageRegionOffers(db, editionId, region)).get(region);
  const maxGapPercent = env.GIFT_PRICE_GAP;
  const refusal = giftRefusal(
    { comingSoon: game.coming_soon, priced: game.price_final !== null, giftRegions: game.gift_regions },
    region,
    game.price_final === null ? undefined : { storePrice: game.price_final, offer, maxGapPercent },
  );
  const param = "target.region";
  if (refusal === "region_not_giftable") throw new DomainError(refusal, { appId, region, allowed: game.gift_regions }, param);
  if (refusal === "region_restricted") throw new DomainError(refusal, { appId, packageId: editionId, region }, param);
  if (refusal === "region_price_gap") {
    const { currency, amount, rubMicrosPerUnit } = offer!;
    const convertedAmount = rubMicrosPerUnit === null ? null : convertedKopecks(amount!, rubMicrosPerUnit);
    const facts = {
      appId,
      packageId: editionId,
      region,
      currency,
      amount: amount!,
      convertedAmount,
      storeAmount: game.price_final!,
      maxGapPercent,
    };
    throw new DomainError(refusal, facts, param);
  }
  if (refusal) throw new DomainError(refusal, { appId });
  const price = game.price_final!;
  // The schema refused a link that does not decode, so this names an account.
  const recipient = inviteRecipient(input.target.inviteUrl)!;

  const intent = await createIntent(db, {
    price,
    feeMode: input.fee,
    promoCode: input.code,
    promoTarget: { kind: "gifts", appId },
    holder: { token, clientKey },
    values: {
      kind: "gift",
      appId,
      packageId: game.package_id,
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
