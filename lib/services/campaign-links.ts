import "server-only";
import { asc, eq, ilike, or, sql } from "drizzle-orm";
import { campaignUrl, storePathOf } from "@/lib/campaigns/links";
import type { DbExecutor } from "@/lib/db/client";
import { games } from "@/lib/db/schema";
import type { LinkBuilderInput } from "@/lib/schemas/campaigns";

export interface LinkGame {
  appId: number;
  title: string;
}

const MATCHES = 6;

/**
 * The games the link builder's "game" field may mean: the one with that app id, or those whose
 * title (English or Russian) contains the words, best known first. Hidden games are included: a
 * marketer may prepare a link before a game is shown.
 */
export async function findGamesForLink(db: DbExecutor, query: string): Promise<LinkGame[]> {
  const text = query.trim();
  const appId = /^\d{1,9}$/.test(text) ? Number(text) : /\/games\/(\d{1,9})(?:[/?#]|$)/.exec(text)?.[1];
  if (appId !== undefined) {
    return db
      .select({ appId: games.appId, title: games.title })
      .from(games)
      .where(eq(games.appId, Number(appId)))
      .limit(1);
  }
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return (
    db
      .select({ appId: games.appId, title: games.title })
      .from(games)
      .where(or(ilike(games.title, like), ilike(games.titleRu, like)))
      // The exact title first, then the shortest: "Portal 2" before "Portal 2 - The Final Hours".
      .orderBy(sql`lower(${games.title}) = lower(${text}) DESC`, sql`length(${games.title})`, asc(games.appId))
      .limit(MATCHES)
  );
}

export type CampaignLinkResult =
  | { ok: true; url: string; path: string; game?: LinkGame }
  | { ok: false; field: "game"; problem: "game_not_found" }
  | { ok: false; field: "game"; problem: "game_ambiguous"; choices: LinkGame[] }
  | { ok: false; field: "path"; problem: "not_store" };

/**
 * The link builder's link: the chosen store page on `origin` with the campaign's parameters. A path
 * of one's own must be on the store: relative, or absolute on one of `origins` (the configured
 * public origin, the one this request came by).
 */
export async function buildCampaignLink(
  db: DbExecutor,
  input: LinkBuilderInput,
  origin: string,
  origins: readonly string[],
): Promise<CampaignLinkResult> {
  let path: string;
  let game: LinkGame | undefined;
  switch (input.target) {
    case "catalog":
      path = "/";
      break;
    case "gear":
      path = "/gear";
      break;
    case "game": {
      const found = await findGamesForLink(db, input.game ?? "");
      if (found.length === 0) return { ok: false, field: "game", problem: "game_not_found" };
      const exact = found.filter((g) => g.title.toLowerCase() === (input.game ?? "").trim().toLowerCase());
      if (found.length > 1 && exact.length !== 1) return { ok: false, field: "game", problem: "game_ambiguous", choices: found };
      game = exact.length === 1 ? exact[0]! : found[0]!;
      path = `/games/${game.appId}`;
      break;
    }
    case "path": {
      const own = storePathOf(input.path ?? "", [origin, ...origins]);
      if (own === null) return { ok: false, field: "path", problem: "not_store" };
      path = own;
      break;
    }
  }
  return { ok: true, url: campaignUrl(origin, path, input), path, ...(game ? { game } : {}) };
}
