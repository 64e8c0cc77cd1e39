import Link from "next/link";
import { Price } from "@/components/ui/price";
import { Skeleton } from "@/components/ui/skeleton";
import { isFreeToPlay } from "@/lib/catalog/free-to-play";
import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";
import type { StorePricing } from "@/lib/money";
import type { CatalogGame } from "@/lib/schemas/catalog";
import { genreLabel } from "./genre-label";

export const COVER_WIDTH = 460;
export const COVER_HEIGHT = 215;

export function GameCard({
  game,
  pricing,
  locale,
  t,
  eager = false,
}: {
  game: CatalogGame;
  pricing: StorePricing;
  locale: Locale;
  t: Messages;
  eager?: boolean;
}) {
  const free = isFreeToPlay(game);
  return (
    // Cards below the fold are laid out and painted only when scrolled near.
    <li className="flex [contain-intrinsic-size:auto_15rem] [content-visibility:auto]">
      <Link
        // A free game has nothing to buy but its gear: the card leads there.
        href={free && game.hasGear ? `/gear?platform=${game.appId}` : `/games/${game.appId}`}
        // Game pages render per request; prefetching 24 of them would cost more than it saves.
        prefetch={false}
        // The list item's content-visibility clips anything outside it, and the cover paints over an
        // inset outline, so the focus ring is a frame laid over the whole card.
        className="group relative flex w-full flex-col overflow-hidden rounded-lg border border-slate-800 bg-slate-900 transition-colors outline-none after:pointer-events-none after:absolute after:inset-0 after:z-10 after:rounded-lg hover:border-slate-600 hover:bg-slate-800/60 focus-visible:after:border-3 focus-visible:after:border-sky-300 focus-visible:after:content-['']"
      >
        <div className="relative aspect-[460/215] bg-slate-800">
          {/* Covers are small SVGs or the store's own CDN images: nothing for an optimizer to do. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img
            src={game.headerImage}
            alt=""
            width={COVER_WIDTH}
            height={COVER_HEIGHT}
            loading={eager ? "eager" : "lazy"}
            fetchPriority={eager ? "high" : undefined}
            decoding="async"
            className="h-full w-full object-cover"
          />
          {game.comingSoon && (
            <span className="absolute top-2 left-2 rounded bg-amber-300 px-1.5 py-0.5 text-xs font-bold text-slate-950">
              {t.common.comingSoon}
            </span>
          )}
        </div>
        <div className="flex flex-1 flex-col gap-1 p-3">
          <h3 className="line-clamp-2 leading-snug font-semibold text-white group-hover:text-sky-200">{game.title}</h3>
          <p className="truncate text-xs text-slate-400">{game.genres.map((g) => genreLabel(g, t.catalog.genres)).join(", ")}</p>
          <div className="mt-auto pt-2">
            {free ? (
              <span className="flex flex-col">
                <span className="font-semibold text-emerald-300">{t.common.price.free}</span>
                {game.hasGear && <span className="text-sm text-sky-300">{t.common.price.gear}</span>}
              </span>
            ) : (
              <Price price={game.price} pricing={pricing} locale={locale} labels={t.common.price} />
            )}
          </div>
        </div>
      </Link>
    </li>
  );
}

export function GameCardSkeleton() {
  return (
    <li className="flex flex-col overflow-hidden rounded-lg border border-slate-800 bg-slate-900">
      <Skeleton className="aspect-[460/215] rounded-none" />
      <div className="flex flex-col gap-2 p-3">
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-3 w-1/2" />
        <Skeleton className="mt-2 h-6 w-20" />
      </div>
    </li>
  );
}
