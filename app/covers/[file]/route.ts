// GET /covers/<appId>.svg - the generated cover of a game that has no store header image
// GET /covers/<appId>.png - its 1200x630 share card, for link previews (which do not show SVG)
import { renderCover } from "@/lib/covers/render-cover";
import { renderShareCard } from "@/lib/covers/share-card";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { getGameTitle } from "@/lib/services/catalog";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const match = /^([1-9]\d{0,9})\.(svg|png)$/.exec((await params).file);
  const appId = Number(match?.[1]);
  if (!match || appId > 2_147_483_647) return notFound();
  const title = await getGameTitle(getDb(), appId);
  if (title === null) return notFound();
  if (match[2] === "png") {
    try {
      return await renderShareCard({ appId, title });
    } catch (err) {
      log.error({ area: "covers", appId, error: err instanceof Error ? err.message : String(err) }, "share card failed");
      return new Response("The share card could not be drawn", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
  }
  return new Response(renderCover({ appId, title }), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=86400, immutable",
      // Opened on its own, an SVG is a document; this one needs nothing beyond its own markup.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
