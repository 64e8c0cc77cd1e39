import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { genreLabel } from "@/components/catalog/genre-label";
import { COVER_HEIGHT, COVER_WIDTH } from "@/components/catalog/game-card";
import { GiftCheckout } from "@/components/checkout/gift-checkout";
import { buttonClass } from "@/components/ui/button";
import { getSessionUser } from "@/lib/auth/session";
import { gameAvailability, isFreeToPlay } from "@/lib/catalog/availability";
import { SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH } from "@/lib/covers/render-cover";
import { Price } from "@/components/ui/price";
import { getMessages } from "@/lib/i18n/server";
import { nonceFromPolicy } from "@/lib/security-headers";
import { storePricing } from "@/lib/store-pricing";
import { catalogHref } from "@/lib/queries/catalog-url";
import { productJsonLd } from "./product-json-ld";
import { Editions } from "./_components/editions";
import { GiftRegions } from "./_components/gift-regions";
import { loadGame } from "./load-game";

type Params = Promise<{ appId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const [{ appId }, { locale }] = await Promise.all([params, getMessages()]);
  const game = await loadGame(appId, locale);
  const url = `/games/${game.appId}`;
  // A store header image is a JPEG previews can show; the generated cover is SVG, which they cannot.
  const image =
    new URL(game.headerImage).pathname === `/covers/${game.appId}.svg`
      ? { url: `/covers/${game.appId}.png`, width: SHARE_CARD_WIDTH, height: SHARE_CARD_HEIGHT, alt: game.title }
      : { url: game.headerImage, width: COVER_WIDTH, height: COVER_HEIGHT, alt: game.title };
  return {
    title: game.title,
    description: game.shortDescription,
    alternates: { canonical: url },
    openGraph: {
      type: "website",
      siteName: "GiftKey",
      locale: locale === "ru" ? "ru_RU" : "en_GB",
      url,
      title: game.title,
      description: game.shortDescription,
      images: [image],
    },
    twitter: { card: "summary_large_image", title: game.title, description: game.shortDescription, images: [image] },
  };
}

// Its links do not prefetch: the catalog views they lead to render per request, and prefetching
// them would compete with this page's start-up on a phone.
export default async function GamePage({ params }: { params: Params }) {
  const [{ appId }, { locale, t }, user, requestHeaders] = await Promise.all([params, getMessages(), getSessionUser(), headers()]);
  // Structured data is not run, but the strict policy still wants every script tag to carry the nonce.
  const nonce = nonceFromPolicy(requestHeaders.get("content-security-policy"));
  const game = await loadGame(appId, locale);
  const availability = gameAvailability(game);
  const main = game.packages.find((p) => p.isMain) ?? game.packages[0];
  const pricing = storePricing();
  const free = isFreeToPlay({ price: main?.price ?? null, genres: game.genres });

  return (
    <main id="main" className="mx-auto w-full max-w-6xl px-4 pt-4 pb-16 sm:pt-6">
      <script type="application/ld+json" nonce={nonce} dangerouslySetInnerHTML={{ __html: productJsonLd(game, availability === null) }} />
      <nav aria-label={t.game.breadcrumb} className="text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-slate-400">
          <li>
            <Link prefetch={false} href="/" className="inline-flex min-h-10 items-center text-sky-300 hover:underline">
              {t.game.catalog}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="truncate text-slate-300">
            {game.title}
          </li>
        </ol>
      </nav>

      <div className="mt-2 grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] md:gap-10">
        <div className="relative self-start overflow-hidden rounded-xl border border-slate-800 bg-slate-800">
          {/* eslint-disable-next-line @next/next/no-img-element -- SVG or store CDN covers; see GameCard */}
          <img
            src={game.headerImage}
            alt=""
            width={COVER_WIDTH}
            height={COVER_HEIGHT}
            fetchPriority="high"
            className="aspect-[460/215] h-auto w-full object-cover"
          />
          {game.comingSoon && (
            <span className="absolute top-3 left-3 rounded bg-amber-300 px-2 py-0.5 text-sm font-bold text-slate-950">
              {t.common.comingSoon}
            </span>
          )}
        </div>

        <div className="flex flex-col gap-4">
          <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{game.title}</h1>
          {game.genres.length > 0 && (
            <div>
              <h2 className="sr-only">{t.game.genres}</h2>
              <ul className="flex flex-wrap gap-2">
                {game.genres.map((genre) => (
                  <li key={genre}>
                    <Link
                      prefetch={false}
                      href={catalogHref({ genre: genre.toLowerCase() })}
                      className="inline-flex min-h-8 items-center rounded-full border border-slate-600 px-3 text-sm text-slate-200 hover:border-slate-400 hover:bg-slate-800"
                    >
                      {genreLabel(genre, t.catalog.genres)}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p className="leading-relaxed text-slate-300">{game.shortDescription}</p>
          <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-slate-800 bg-slate-900 p-4">
            {free ? (
              <span className="text-2xl font-semibold text-emerald-300">{t.common.price.free}</span>
            ) : (
              <Price price={main?.price ?? null} pricing={pricing} locale={locale} labels={t.common.price} size="lg" />
            )}
            {availability === null ? (
              <a href="#checkout" className={buttonClass("primary", "w-full sm:w-auto")}>
                {t.game.buy}
              </a>
            ) : free ? (
              <>
                <p className="w-full text-slate-200">{t.game.freeToPlay}</p>
                {game.hasGear && (
                  <Link prefetch={false} href={`/gear?platform=${game.appId}`} className={buttonClass("primary", "w-full sm:w-auto")}>
                    {t.game.toGear}
                  </Link>
                )}
              </>
            ) : (
              <p className="w-full text-sm text-amber-200">{t.game.unavailable[availability]}</p>
            )}
          </div>
        </div>
      </div>

      <div className="mt-10 grid gap-10 md:grid-cols-2">
        <Editions packages={game.packages} pricing={pricing} free={free} locale={locale} t={t} />
        <GiftRegions regions={game.giftRegionPrices} free={free} locale={locale} t={t} />
      </div>

      {availability === null && (
        // Focusable, so "Buy as a gift" (#checkout) moves the focus here and the next Tab reaches the form's first field.
        <div
          id="checkout"
          tabIndex={-1}
          className="mt-10 scroll-mt-4 rounded-lg focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-sky-300"
        >
          <GiftCheckout game={game} defaultEmail={user?.email} />
        </div>
      )}
    </main>
  );
}
