import "server-only";
import { env } from "@/lib/env";
import { TtlCache } from "@/lib/ttl-cache";
import { renderShareCard } from "./share-card";

// A card changes only with its game's title, which is part of the key.
const CARD_TTL_MS = 24 * 3600 * 1000;

const cards = new TtlCache<Uint8Array>(CARD_TTL_MS, {
  maxEntries: 10_000,
  maxBytes: env.COVER_CACHE_MAX_BYTES,
  sizeOf: (png) => png.byteLength,
});
let drawing = 0;

export type ShareCard = { png: Uint8Array; cached: boolean } | { busy: true };

/**
 * A game's share card from this process's cache, or drawn once for all who ask at the same time.
 * Drawing costs 150-800 ms of CPU, so at most COVER_RENDER_CONCURRENCY cards are drawn at once and
 * a request for any other card meanwhile is told it is busy rather than queued behind them.
 */
export async function shareCard(appId: number, title: string): Promise<ShareCard> {
  const key = `${appId}\n${title}`;
  const cached = cards.has(key);
  if (!cached && drawing >= env.COVER_RENDER_CONCURRENCY) return { busy: true };
  const png = await cards.get(key, async () => {
    drawing += 1;
    try {
      return await renderShareCard({ appId, title });
    } finally {
      drawing -= 1;
    }
  });
  return { png, cached };
}
