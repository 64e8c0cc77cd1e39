// /admin/catalog/[appId] - one game: hide or show it, edit its gift regions, and whether each region can be gifted now.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cardClass, linkClass } from "@/components/account/styles";
import { ActionButton } from "@/components/admin/action-button";
import { GameRegionsForm } from "@/components/admin/catalog-forms";
import { AdminHeading, tableWrapClass, tdClass, thClass } from "@/components/admin/ui";
import { toneBadge } from "@/components/admin/tone";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { intlLocale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { regionName } from "@/lib/i18n/regions";
import { getMessages } from "@/lib/i18n/server";
import { isAppId } from "@/lib/schemas/common";
import { getAdminGame } from "@/lib/services/admin-catalog";
import { setGameHiddenAction, setGameRegionsAction } from "../actions";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminCatalog.catalog.heading };
}

export default async function AdminGamePage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId: appIdParam } = await params;
  await requirePermission("catalog:write", `/admin/catalog/${encodeURIComponent(appIdParam)}`);
  const found = isAppId(appIdParam) ? await getAdminGame(getDb(), Number(appIdParam)) : null;
  if (!found) notFound();
  const { game, verdicts } = found;
  const { locale, t } = await getMessages();
  const m = t.adminCatalog.catalog;
  const amount = (currency: string | null, minor: number | null) =>
    currency && minor !== null ? new Intl.NumberFormat(intlLocale(locale), { style: "currency", currency }).format(minor / 100) : "—";

  return (
    <main id="main" className="space-y-6">
      <Link href="/admin/catalog" className={`${linkClass} text-sm`}>
        {m.back}
      </Link>
      <AdminHeading title={format(m.gameTitle, { title: game.title, appId: game.appId })}>
        <span className={`${game.hidden ? toneBadge.bad : toneBadge.good} self-center`}>{game.hidden ? m.hidden : m.shown}</span>
        <ActionButton
          action={setGameHiddenAction}
          input={{ appId: game.appId, hidden: !game.hidden }}
          label={game.hidden ? m.show : m.hide}
          ariaLabel={format(game.hidden ? m.showLabel : m.hideLabel, { title: game.title })}
          done={t.adminCatalog.common.saved}
        />
      </AdminHeading>
      {game.hidden ? <p className="text-sm text-amber-200">{m.hiddenNotice}</p> : null}
      <section aria-labelledby="game-regions" className={cardClass}>
        <h2 id="game-regions" className="mb-4 text-lg font-semibold text-white">
          {m.regionsHeading}
        </h2>
        <GameRegionsForm appId={game.appId} regions={game.giftRegions} action={setGameRegionsAction} />
      </section>
      <section aria-labelledby="game-verdicts">
        <h2 id="game-verdicts" className="text-lg font-semibold text-white">
          {m.verdictsHeading}
        </h2>
        {verdicts.length === 0 ? (
          <p className="mt-2 text-slate-300">{m.noVerdicts}</p>
        ) : (
          <div className={tableWrapClass}>
            {/* Three short columns fit a phone: no min width, so no scrolling region without anything to focus. */}
            <table className="w-full border-collapse text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    {m.region}
                  </th>
                  <th scope="col" className={`${thClass} text-right`}>
                    {m.localPrice}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.verdict}
                  </th>
                </tr>
              </thead>
              <tbody>
                {verdicts.map((v) => (
                  <tr key={v.region}>
                    <td className={tdClass}>
                      {regionName(v.region, locale)} <span className="font-mono text-xs text-slate-400">{v.region}</span>
                    </td>
                    <td className={`${tdClass} text-right`}>{amount(v.currency, v.amount)}</td>
                    <td className={tdClass}>
                      {v.refusal === null ? (
                        <span className={toneBadge.good}>{m.giftable}</span>
                      ) : (
                        <span className={toneBadge.warn}>{m.refusals[v.refusal]}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}
