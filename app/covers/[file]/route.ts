// GET /covers/<appId>.svg - the generated cover of a game that has no store header image
// GET /covers/<appId>.png - its 1200x630 share card, for link previews (which do not show SVG)
import { errorResponse } from "@/lib/api/errors";
import { renderCover } from "@/lib/covers/render-cover";
import { shareCard } from "@/lib/covers/share-card-cache";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { getGameTitle } from "@/lib/services/catalog";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

// The query string is never read: `?v=2` is the same card, from the same cache entry.
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const match = /^([1-9]\d{0,9})\.(svg|png)$/.exec((await params).file);
  const appId = Number(match?.[1]);
  if (!match || appId > 2_147_483_647) return notFound();
  const title = await getGameTitle(getDb(), appId);
  if (title === null) return notFound();
  if (match[2] === "png") {
    try {
      const card = await shareCard(appId, title);
      if ("busy" in card) {
        const state = { policy: "covers", limit: env.COVER_RENDER_CONCURRENCY, windowSeconds: 1, remaining: 0, resetSeconds: 1 };
        return errorResponse("rate_limited", { what: "share cards drawn at once", state }, { headers: { "Cache-Control": "no-store" } });
      }
      return new Response(card.png as Uint8Array<ArrayBuffer>, {
        headers: {
          "Content-Type": "image/png",
          "Cache-Control": "public, max-age=86400, immutable",
          "X-Content-Type-Options": "nosniff",
          "X-Cache": card.cached ? "HIT" : "MISS",
        },
      });
    } catch (err) {
      log.error({ area: "covers", appId, error: err instanceof Error ? err.message : String(err) }, "share card failed");
      return new Response("The share card could not be drawn", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
  }
  // Every page that shows this cover prints the title beside it, in the page's language.
  return new Response(renderCover({ appId, title }, { withTitle: false }), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=86400, immutable",
      // Opened on its own, an SVG is a document; this one needs nothing beyond its own markup.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
