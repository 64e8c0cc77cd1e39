import type { Messages } from "@/lib/i18n/messages";
import type { GameDetails } from "@/lib/schemas/catalog";

// TODO(checkout): blocked on components/checkout/gift-checkout.tsx (the checkout helper's branch).
// At merge, the lead replaces this component with <GiftCheckout game={game} /> inside the same
// <section id="checkout">: the "Buy as a gift" button above links to #checkout.
export function CheckoutPlaceholder({ game, t }: { game: GameDetails; t: Messages }) {
  return (
    <section id="checkout" aria-labelledby="checkout-title" className="mt-10 scroll-mt-4" data-placeholder="gift-checkout" data-app-id={game.appId}>
      <h2 id="checkout-title" className="text-xl font-semibold text-white">
        {t.game.checkout.title}
      </h2>
      <p className="mt-3 rounded-lg border border-dashed border-slate-600 p-6 text-slate-300">{t.game.checkout.placeholder}</p>
    </section>
  );
}
