import "server-only";
import { sql } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/client";
import type { GiftVerifyRequest, GiftVerifyResponse } from "@/lib/schemas/gifts";
import { CURRENCY } from "@/lib/money";
import { conflict, notFound } from "@/lib/api/errors";
import type { AuthToken } from "./tokens";
import { createIntent, paymentPageUrl } from "./intents";

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
): Promise<GiftVerifyResponse> {
  const appId = input.item;
  const packageId = input.target.packageId ?? null;
  const { rows } = await db.execute<GiftTargetRow>(
    sql`SELECT g.coming_soon, g.gift_regions, p.package_id, p.price_final
        FROM games g
        LEFT JOIN packages p ON p.app_id = g.app_id
          AND (CASE WHEN ${packageId}::int IS NULL THEN p.is_main ELSE p.package_id = ${packageId}::int END)
        WHERE g.app_id = ${appId}`,
  );
  const game = rows[0];
  if (!game) throw notFound(`game ${appId} not found`);
  if (game.package_id === null) {
    throw notFound(packageId === null ? `game ${appId} has no edition on sale` : `package ${packageId} is not an edition of game ${appId}`);
  }
  if (game.coming_soon) throw conflict(`game ${appId} is not released yet and cannot be bought`);
  if (game.price_final === null) throw conflict(`game ${appId} has no price yet and cannot be bought`);
  if (!game.gift_regions.includes(input.target.region)) {
    const allowed = game.gift_regions.length ? `; it can be gifted to: ${game.gift_regions.join(", ")}` : "";
    throw conflict(`game ${appId} cannot be gifted to region ${input.target.region}${allowed}`);
  }

  const intent = await createIntent(db, {
    price: game.price_final,
    feeMode: input.fee,
    promoCode: input.code,
    promoTarget: { kind: "gifts", appId },
    values: {
      kind: "gift",
      tokenId: token.id,
      appId,
      packageId: game.package_id,
      giftRegion: input.target.region,
      inviteUrl: input.target.inviteUrl,
      email: input.email,
      successUrl: input.successUrl,
      failureUrl: input.failureUrl,
      callbackUrl: input.callbackUrl,
      attribution: input.attribution,
    },
  });
  return {
    code: 201,
    intentId: intent.id,
    paymentAmount: intent.quote.paymentAmount,
    paymentCurrency: CURRENCY,
    paymentUrl: paymentPageUrl(origin, intent.id),
    intentAmount: intent.quote.intentAmount,
    intentCurrency: CURRENCY,
    discountAmount: intent.quote.discountAmount,
    feeAmount: intent.quote.feeAmount,
    expiresAt: intent.expiresAt.toISOString(),
  };
}
