import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/db/client";
import { isDomainError } from "@/lib/errors";
import type { Locale } from "@/lib/i18n/config";
import { appIdSchema } from "@/lib/schemas/common";
import type { GameDetails } from "@/lib/schemas/catalog";
import { getGameOrThrow } from "@/lib/services/catalog";
import { siteOrigin } from "@/lib/site-origin";

/**
 * The game for `/games/[appId]`, read once per request for both the metadata and the page; an id
 * that is not a valid appId, or a game the store does not have, is the game page's 404.
 */
export const loadGame = cache(async (appIdParam: string, locale: Locale): Promise<GameDetails> => {
  const appId = appIdSchema("appId").safeParse(decodeURIComponent(appIdParam));
  if (!appId.success) notFound();
  try {
    return await getGameOrThrow(getDb(), appId.data, locale, await siteOrigin());
  } catch (error) {
    if (isDomainError(error, "game_not_found")) notFound();
    throw error;
  }
});
