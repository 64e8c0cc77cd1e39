import type { Metadata } from "next";
import { GearPurchase } from "@/components/gear/gear-purchase";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { getMessages } from "@/lib/i18n/server";
import type { GearItem } from "@/lib/schemas/gear";
import { listGearItems, listGearPlatforms } from "@/lib/services/gear";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.gear.metaTitle };
}

// The list is read here so it arrives with the page; the form keeps it fresh through the API.
async function loadGear() {
  const db = getDb();
  const [platforms, { items }] = await Promise.all([listGearPlatforms(db), listGearItems(db, { page: 0, limit: 100 })]);
  const byPlatform: Record<string, GearItem[]> = {};
  for (const item of items) (byPlatform[item.platform] ??= []).push(item);
  return { platforms, byPlatform, readAt: Date.now() };
}

export default async function GearPage({ searchParams }: { searchParams: Promise<{ platform?: string | string[] }> }) {
  const [{ t }, user, params, { platforms, byPlatform, readAt }] = await Promise.all([
    getMessages(),
    getSessionUser(),
    searchParams,
    loadGear(),
  ]);
  const asked = typeof params.platform === "string" ? params.platform : undefined;
  const initialPlatform = platforms.find((p) => p.platform === asked)?.platform ?? platforms[0]?.platform;

  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold sm:text-3xl">{t.gear.heading}</h1>
      <p className="mt-2 text-slate-300">{t.gear.intro}</p>
      <div className="mt-6">
        {initialPlatform ? (
          <GearPurchase
            platforms={platforms}
            initialPlatform={initialPlatform}
            initialItems={byPlatform}
            initialItemsAt={readAt}
            defaultEmail={user?.email}
          />
        ) : (
          <p className="rounded-lg border border-slate-700 bg-slate-900/60 p-4 text-slate-300 sm:p-6">{t.gear.item.empty}</p>
        )}
      </div>
    </main>
  );
}
