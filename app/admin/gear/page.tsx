// /admin/gear - gear items per platform with stock, held and sold units; change stock, add an item.
import type { Metadata } from "next";
import Link from "next/link";
import { cardClass, inputClass, labelClass, linkClass, secondaryButtonClass } from "@/components/account/styles";
import { GearItemCreateForm, StockAdjustForm } from "@/components/admin/gear-forms";
import { AdminHeading, Pager, param, tableClass, tableWrapClass, tdClass, thClass, type AdminSearchParams } from "@/components/admin/ui";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { intlLocale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { formatRub } from "@/lib/money";
import { pageNumber } from "@/lib/schemas/bounds";
import { listGearPlatformChoices, listGearStock } from "@/lib/services/admin-gear";
import { adjustGearStockAction, createGearItemAction } from "./actions";

const PAGE_SIZE = 50;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminCatalog.gear.heading };
}

export default async function GearStockPage({ searchParams }: { searchParams: AdminSearchParams }) {
  await requirePermission("stock:write", "/admin/gear");
  const [{ locale, t }, params] = await Promise.all([getMessages(), searchParams]);
  const m = t.adminCatalog.gear;
  const c = t.adminCatalog.common;
  const platformParam = param(params, "platform");
  const platform = platformParam && /^\d{1,9}$/.test(platformParam) ? Number(platformParam) : undefined;
  const q = param(params, "q")?.slice(0, 100);
  const page = pageNumber(param(params, "page"));
  const db = getDb();
  const [{ items, total }, platforms] = await Promise.all([
    listGearStock(db, { platform, q, page, pageSize: PAGE_SIZE }),
    listGearPlatformChoices(db),
  ]);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const number = new Intl.NumberFormat(intlLocale(locale));

  return (
    <main id="main" className="space-y-4">
      <AdminHeading title={m.heading} intro={m.intro} />
      <form method="get" className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="gear-platform" className={labelClass}>
            {m.platform}
          </label>
          <select id="gear-platform" name="platform" defaultValue={platform ?? ""} className={`${inputClass} mt-1 w-64`}>
            <option value="">{c.all}</option>
            {platforms.map((p) => (
              <option key={p.appId} value={p.appId}>
                {p.title} ({p.appId})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="gear-q" className={labelClass}>
            {m.search}
          </label>
          <input id="gear-q" name="q" type="search" defaultValue={q} className={`${inputClass} mt-1 w-56`} />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          {c.filter}
        </button>
        {platform || q ? (
          <Link href="/admin/gear" className={`${linkClass} min-h-10 content-center text-sm`}>
            {c.reset}
          </Link>
        ) : null}
      </form>
      <p className="text-sm text-slate-300">{format(c.found, { count: total })}</p>
      {items.length === 0 ? (
        <p className="text-slate-300">{c.empty}</p>
      ) : (
        <div className={tableWrapClass}>
          <table className={`${tableClass} min-w-[56rem]`}>
            <thead>
              <tr>
                <th scope="col" className={thClass}>
                  {m.item}
                </th>
                <th scope="col" className={thClass}>
                  {m.platform}
                </th>
                <th scope="col" className={`${thClass} text-right`}>
                  {m.price}
                </th>
                <th scope="col" className={`${thClass} text-right`}>
                  {m.stock}
                </th>
                <th scope="col" className={`${thClass} text-right`}>
                  {m.reserved}
                </th>
                <th scope="col" className={`${thClass} text-right`}>
                  {m.sold}
                </th>
                <th scope="col" className={thClass}>
                  {m.adjust}
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <td className={tdClass}>
                    {item.title}
                    <span className="block font-mono text-xs text-slate-400">{item.item}</span>
                  </td>
                  <td className={`${tdClass} min-w-28`}>
                    {item.platformTitle}
                    <span className="block text-xs text-slate-400">{item.platformAppId}</span>
                  </td>
                  <td className={`${tdClass} text-right whitespace-nowrap`}>{formatRub(item.price, intlLocale(locale))}</td>
                  <td className={`${tdClass} text-right font-semibold`}>{number.format(item.stock)}</td>
                  <td className={`${tdClass} text-right`}>{number.format(item.reserved)}</td>
                  <td className={`${tdClass} text-right`}>{number.format(item.sold)}</td>
                  <td className={`${tdClass} min-w-[19rem]`}>
                    <StockAdjustForm itemId={item.id} title={item.title} action={adjustGearStockAction} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        path="/admin/gear"
        params={{ platform: platform === undefined ? undefined : String(platform), q }}
        page={page}
        pageCount={pages}
        labels={{ previous: c.previous, next: c.next, pageOf: format(c.pageOf, { page, pages }) }}
      />
      <section aria-labelledby="gear-add" className={cardClass}>
        <h2 id="gear-add" className="mb-4 text-lg font-semibold text-white">
          {m.addHeading}
        </h2>
        <GearItemCreateForm action={createGearItemAction} />
      </section>
    </main>
  );
}
