import { notFound } from "next/navigation";
import { GiftCheckout } from "@/components/checkout/gift-checkout";
import { ApiError } from "@/lib/api/errors";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { getMessages } from "@/lib/i18n/server";
import { getGameOrThrow } from "@/lib/services/catalog";

// TODO(catalog): stand-in so the gift checkout can be used and tested on this branch; the catalog
// branch's game page replaces it and mounts <GiftCheckout> the same way.
export default async function GamePage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  if (!/^[1-9]\d{0,9}$/.test(appId)) notFound();
  const [{ locale }, user] = await Promise.all([getMessages(), getSessionUser()]);
  const game = await getGameOrThrow(getDb(), Number(appId), locale, "").catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  });
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold sm:text-3xl">{game.title}</h1>
      <p className="mt-2 text-slate-300">{game.shortDescription}</p>
      <div className="mt-6">
        <GiftCheckout game={game} defaultEmail={user?.email} feeRate={env.FEE_RATE} />
      </div>
    </main>
  );
}
