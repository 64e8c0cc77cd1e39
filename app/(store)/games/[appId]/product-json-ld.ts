import type { GameDetails } from "@/lib/schemas/catalog";

/**
 * schema.org Product for search engines: the main edition's offer in roubles. `<` is escaped so a
 * title can never close the script element.
 */
export function productJsonLd(game: GameDetails, available: boolean): string {
  const main = game.packages.find((p) => p.isMain) ?? game.packages[0];
  const price = main?.price;
  const data = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: game.title,
    description: game.shortDescription,
    image: game.headerImage,
    sku: String(game.appId),
    category: game.genres.join(", "),
    ...(price && {
      offers: {
        "@type": "Offer",
        price: (price.paymentAmount / 100).toFixed(2),
        priceCurrency: price.paymentCurrency,
        availability: available ? "https://schema.org/InStock" : "https://schema.org/PreOrder",
      },
    }),
  };
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
