import { getMessages } from "@/lib/i18n/server";
import type { GameDetails } from "@/lib/schemas/catalog";

// TODO(checkout): blocked on components/checkout/gift-checkout.tsx (the checkout helper's branch).
// It takes the same props: at merge, `<CheckoutPlaceholder ... />` in the game page becomes
// `<GiftCheckout ... />` inside the same #checkout element, which the "Buy as a gift" button targets.
export async function CheckoutPlaceholder({
  game,
}: {
  game: Pick<GameDetails, "appId" | "title" | "packages" | "giftRegions" | "comingSoon">;
  defaultEmail?: string;
  feeRate?: number;
}) {
  const { t } = await getMessages();
  return (
    <section aria-labelledby="checkout-title" data-placeholder="gift-checkout" data-app-id={game.appId}>
      <h2 id="checkout-title" className="text-xl font-semibold text-white">
        {t.game.checkout.title}
      </h2>
      <p className="mt-3 rounded-lg border border-dashed border-slate-600 p-6 text-slate-300">{t.game.checkout.placeholder}</p>
    </section>
  );
}
