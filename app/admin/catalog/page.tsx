// /admin/catalog - find games, hide or show them, open one for its regions; upload a catalog file.
import type { Metadata } from "next";
import Link from "next/link";
import { cardClass, inputClass, labelClass, linkClass, secondaryButtonClass } from "@/components/account/styles";
import { ActionButton } from "@/components/admin/action-button";
import { CatalogImport } from "@/components/admin/catalog-forms";
import { AdminHeading, Pager, param, tableClass, tableWrapClass, tdClass, thClass, type AdminSearchParams } from "@/components/admin/ui";
import { toneBadge } from "@/components/admin/tone";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { intlLocale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { formatRub } from "@/lib/money";
import { CATALOG_IMPORT_MAX_BYTES } from "@/lib/schemas/admin-catalog";
import { pageNumber } from "@/lib/schemas/bounds";
import { searchAdminGames } from "@/lib/services/admin-catalog";
import { setGameHiddenAction } from "./actions";

const PAGE_SIZE = 25;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminCatalog.catalog.heading };
}

export default async function AdminCatalogPage({ searchParams }: { searchParams: AdminSearchParams }) {
  await requirePermission("catalog:write", "/admin/catalog");
  const [{ locale, t }, params] = await Promise.all([getMessages(), searchParams]);
  const m = t.adminCatalog.catalog;
  const c = t.adminCatalog.common;
  const q = param(params, "q")?.slice(0, 200);
  const hiddenOnly = param(params, "hidden") === "1";
  const page = pageNumber(param(params, "page"));
  const { games, total } = await searchAdminGames(getDb(), { q, hiddenOnly, page, pageSize: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <main id="main" className="space-y-6">
      <AdminHeading title={m.heading} intro={m.intro} />
      <section aria-labelledby="catalog-games" className="space-y-4">
        <h2 id="catalog-games" className="sr-only">
          {m.heading}
        </h2>
        <form method="get" className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="catalog-q" className={labelClass}>
              {m.search}
            </label>
            <input id="catalog-q" name="q" type="search" defaultValue={q} className={`${inputClass} mt-1 w-64`} />
          </div>
          <label className="flex min-h-10 items-center gap-2 text-sm text-slate-200">
            <input type="checkbox" name="hidden" value="1" defaultChecked={hiddenOnly} className="size-5 accent-sky-400" />
            {m.hiddenOnly}
          </label>
          <button type="submit" className={secondaryButtonClass}>
            {c.filter}
          </button>
          {q || hiddenOnly ? (
            <Link href="/admin/catalog" className={`${linkClass} min-h-10 content-center text-sm`}>
              {c.reset}
            </Link>
          ) : null}
        </form>
        <p className="text-sm text-slate-300">{format(c.found, { count: total })}</p>
        {games.length === 0 ? (
          <p className="text-slate-300">{c.empty}</p>
        ) : (
          <div className={tableWrapClass}>
            <table className={`${tableClass} min-w-[48rem]`}>
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    {m.appId}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.game}
                  </th>
                  <th scope="col" className={`${thClass} text-right`}>
                    {m.price}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.regions}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.state}
                  </th>
                  <th scope="col" className={thClass}>
                    {c.actions}
                  </th>
                </tr>
              </thead>
              <tbody>
                {games.map((g) => (
                  <tr key={g.appId}>
                    <td className={`${tdClass} font-mono`}>{g.appId}</td>
                    <td className={tdClass}>
                      {g.title}
                      {g.titleRu && g.titleRu !== g.title ? <span className="block text-xs text-slate-400">{g.titleRu}</span> : null}
                    </td>
                    <td className={`${tdClass} text-right whitespace-nowrap`}>
                      {g.priceFinal === null ? (
                        <span className="text-slate-400">{m.notPriced}</span>
                      ) : (
                        formatRub(g.priceFinal, intlLocale(locale))
                      )}
                    </td>
                    <td className={`${tdClass} font-mono text-xs`}>{g.giftRegions.join(", ") || "—"}</td>
                    <td className={tdClass}>
                      <span className={g.hidden ? toneBadge.bad : toneBadge.good}>{g.hidden ? m.hidden : m.shown}</span>
                    </td>
                    <td className={`${tdClass} min-w-[15rem]`}>
                      <div className="flex flex-wrap items-center gap-2">
                        <Link
                          href={`/admin/catalog/${g.appId}`}
                          className={secondaryButtonClass}
                          aria-label={format(m.openLabel, { title: g.title })}
                        >
                          {m.open}
                        </Link>
                        <ActionButton
                          action={setGameHiddenAction}
                          input={{ appId: g.appId, hidden: !g.hidden }}
                          label={g.hidden ? m.show : m.hide}
                          ariaLabel={format(g.hidden ? m.showLabel : m.hideLabel, { title: g.title })}
                          done={c.saved}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          path="/admin/catalog"
          params={{ q, hidden: hiddenOnly ? "1" : undefined }}
          page={page}
          pageCount={pages}
          labels={{ previous: c.previous, next: c.next, pageOf: format(c.pageOf, { page, pages }) }}
        />
      </section>
      <section aria-labelledby="catalog-import" className={cardClass}>
        <h2 id="catalog-import" className="text-lg font-semibold text-white">
          {m.import.heading}
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-300">
          {format(m.import.intro, { size: format(m.import.megabytes, { n: CATALOG_IMPORT_MAX_BYTES / 1024 / 1024 }) })}
        </p>
        <CatalogImport />
      </section>
    </main>
  );
}
