// /admin/orders - every order, filtered, searched, sorted and paged in the database; state in the URL.
import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/account/local-time";
import { inputClass, labelClass, linkClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import {
  AdminHeading,
  badgeClass,
  Pager,
  tableClass,
  tableWrapClass,
  tdClass,
  thClass,
  type AdminSearchParams,
} from "@/components/admin/ui";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { format } from "@/lib/i18n/format";
import { regionName } from "@/lib/i18n/regions";
import { getMessages } from "@/lib/i18n/server";
import { DELIVERY_STATUSES, INTENT_STATUSES } from "@/lib/intents/states";
import { formatRub } from "@/lib/money";
import { ADMIN_ORDER_SORTS, ADMIN_ORDERS_EXPORT_MAX, adminOrderFilterParams, adminOrderFilterSchema } from "@/lib/schemas/admin-orders";
import { listAdminOrders } from "@/lib/services/admin-orders";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminOrders.title };
}

export default async function AdminOrdersPage({ searchParams }: { searchParams: AdminSearchParams }) {
  await requirePermission("orders:read", "/admin/orders");
  const [{ locale, t }, params] = await Promise.all([getMessages(), searchParams]);
  const m = t.adminOrders;
  const filter = adminOrderFilterSchema.parse(params);
  const { rows, total, capped, page, pageCount } = await listAdminOrders(getDb(), filter);
  const kept = adminOrderFilterParams(filter);
  const query = new URLSearchParams(Object.entries(kept).filter((e): e is [string, string] => Boolean(e[1]))).toString();
  const intl = locale === "ru" ? "ru-RU" : "en-US";
  // Past the count's cap the list knows a lower bound: "10 000+" orders, "401+" pages.
  const more = capped ? "+" : "";
  const pages = `${pageCount}${more}`;
  const pageOf = format(m.pager.pageOf, { page, pages });
  // The filters beyond search fold away (a long form on a phone) unless one of them is in use.
  const advanced = Object.entries(kept).some(
    ([k, v]) => v && k !== "q" && !(k === "sort" && v === "created") && !(k === "dir" && v === "desc"),
  );

  return (
    <main id="main" className="space-y-4">
      <AdminHeading title={m.title} intro={m.intro}>
        <a href={`/admin/orders/export${query ? `?${query}` : ""}`} className={secondaryButtonClass} download>
          {m.exportCsv}
        </a>
      </AdminHeading>
      <p className="text-xs text-slate-400">{format(m.exportHint, { max: ADMIN_ORDERS_EXPORT_MAX.toLocaleString(intl) })}</p>

      <form
        method="get"
        action="/admin/orders"
        role="search"
        aria-label={m.filters.legend}
        className="rounded-lg border border-slate-800 bg-slate-900/60 p-4"
      >
        <div>
          <label htmlFor="f-q" className={labelClass}>
            {m.filters.q}
          </label>
          <input id="f-q" name="q" type="search" defaultValue={filter.q ?? ""} aria-describedby="f-q-hint" className={inputClass} />
          <p id="f-q-hint" className="mt-1 text-xs text-slate-400">
            {m.filters.qHint}
          </p>
        </div>
        <details open={advanced} className="group mt-3">
          <summary className="inline-flex min-h-10 cursor-pointer items-center rounded-md text-sm font-semibold text-sky-300 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400">
            {m.filters.more}
          </summary>
          <div className="mt-2 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Select id="f-state" name="state" label={m.filters.state} value={filter.state} any={m.filters.any}>
              {INTENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {m.states[s]}
                </option>
              ))}
            </Select>
            <Select id="f-delivery" name="delivery" label={m.filters.delivery} value={filter.delivery} any={m.filters.any}>
              {DELIVERY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {m.deliveryStatuses[s]}
                </option>
              ))}
              <option value="none">{m.filters.noDelivery}</option>
            </Select>
            <Select id="f-kind" name="kind" label={m.filters.kind} value={filter.kind} any={m.filters.any}>
              <option value="gift">{m.kinds.gift}</option>
              <option value="gear">{m.kinds.gear}</option>
            </Select>
            <div>
              <label htmlFor="f-game" className={labelClass}>
                {m.filters.game}
              </label>
              <input
                id="f-game"
                name="game"
                defaultValue={filter.game ?? ""}
                placeholder={m.filters.gameHint}
                aria-describedby="f-game-hint"
                className={inputClass}
              />
              <p id="f-game-hint" className="sr-only">
                {m.filters.gameHint}
              </p>
            </div>
            <div>
              <label htmlFor="f-from" className={labelClass}>
                {m.filters.from}
              </label>
              <input id="f-from" name="from" type="date" defaultValue={filter.from ?? ""} className={inputClass} />
            </div>
            <div>
              <label htmlFor="f-to" className={labelClass}>
                {m.filters.to}
              </label>
              <input id="f-to" name="to" type="date" defaultValue={filter.to ?? ""} className={inputClass} />
            </div>
            <div>
              <label htmlFor="f-campaign" className={labelClass}>
                {m.filters.campaign}
              </label>
              <input id="f-campaign" name="campaign" defaultValue={filter.campaign ?? ""} className={inputClass} />
            </div>
            <div>
              <label htmlFor="f-source" className={labelClass}>
                {m.filters.source}
              </label>
              <input id="f-source" name="source" defaultValue={filter.source ?? ""} className={inputClass} />
            </div>
            <div>
              <label htmlFor="f-sort" className={labelClass}>
                {m.filters.sort}
              </label>
              <select id="f-sort" name="sort" defaultValue={filter.sort ?? "created"} className={inputClass}>
                {ADMIN_ORDER_SORTS.map((s) => (
                  <option key={s} value={s}>
                    {m.sorts[s]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="f-dir" className={labelClass}>
                {m.filters.dir}
              </label>
              <select id="f-dir" name="dir" defaultValue={filter.dir ?? "desc"} className={inputClass}>
                <option value="desc">{m.dirs.desc}</option>
                <option value="asc">{m.dirs.asc}</option>
              </select>
            </div>
          </div>
        </details>
        <div className="mt-4 flex flex-wrap gap-3">
          <button type="submit" className={primaryButtonClass}>
            {m.filters.apply}
          </button>
          <Link href="/admin/orders" className={secondaryButtonClass}>
            {m.filters.reset}
          </Link>
        </div>
      </form>

      <p role="status" className="text-sm text-slate-300">
        {format(m.found, { count: `${total.toLocaleString(intl)}${more}` })}
      </p>

      {rows.length === 0 ? (
        <p className="rounded-lg border border-slate-800 p-6 text-center text-slate-300">{m.empty}</p>
      ) : (
        <div className={tableWrapClass} tabIndex={0} role="region" aria-label={format(m.caption, { page, pages })}>
          <table className={`${tableClass} min-w-[56rem]`}>
            <caption className="sr-only">{format(m.caption, { page, pages })}</caption>
            <thead>
              <tr>
                <th scope="col" className={thClass}>
                  {m.columns.id}
                </th>
                <th scope="col" className={thClass} aria-sort={sortState(filter, "created")}>
                  {m.columns.created}
                </th>
                <th scope="col" className={thClass}>
                  {m.columns.item}
                </th>
                <th scope="col" className={thClass}>
                  {m.columns.recipient}
                </th>
                <th scope="col" className={thClass}>
                  {m.columns.email}
                </th>
                <th scope="col" className={`${thClass} text-right`} aria-sort={sortState(filter, "amount")}>
                  {m.columns.amount}
                </th>
                <th scope="col" className={thClass} aria-sort={sortState(filter, "state")}>
                  {m.columns.state}
                </th>
                <th scope="col" className={thClass}>
                  {m.columns.campaign}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="hover:bg-slate-900/60">
                  <td className={tdClass}>
                    <Link
                      href={`/admin/orders/${r.id}`}
                      className={`${linkClass} font-mono`}
                      aria-label={format(m.order.heading, { id: r.id })}
                    >
                      {r.id.slice(0, 8)}
                    </Link>
                  </td>
                  <td className={`${tdClass} min-w-28`}>
                    <LocalTime value={r.createdAt.toISOString()} />
                  </td>
                  <td className={`${tdClass} min-w-32`}>
                    <span className="block text-xs text-slate-400">{m.kinds[r.kind]}</span>
                    <span className="block">{r.gameTitle}</span>
                    {r.itemTitle && r.itemTitle !== r.gameTitle ? (
                      <span className="block text-xs text-slate-400">{r.itemTitle}</span>
                    ) : null}
                  </td>
                  <td className={`${tdClass} font-mono text-xs whitespace-nowrap`}>
                    {r.recipient ?? "—"}
                    {r.region ? <span className="block text-slate-400">{regionName(r.region, locale)}</span> : null}
                  </td>
                  <td className={`${tdClass} min-w-44 [overflow-wrap:anywhere]`}>{r.email}</td>
                  <td className={`${tdClass} text-right whitespace-nowrap tabular-nums`}>{formatRub(r.paymentAmount, intl)}</td>
                  <td className={tdClass}>
                    <span className={`${badgeClass} whitespace-nowrap`}>{m.states[r.status]}</span>
                    {r.deliveryStatus ? (
                      <span className="mt-1 block text-xs whitespace-nowrap text-slate-400">
                        {format(m.deliveryOf, {
                          status: m.deliveryStatuses[r.deliveryStatus as keyof typeof m.deliveryStatuses] ?? r.deliveryStatus,
                        })}
                      </span>
                    ) : null}
                  </td>
                  <td className={`${tdClass} break-all`}>
                    {r.campaign ?? "—"}
                    {r.source ? <span className="block text-xs text-slate-400">{r.source}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        path="/admin/orders"
        params={kept}
        page={page}
        pageCount={pageCount}
        labels={{ previous: m.pager.previous, next: m.pager.next, pageOf }}
      />
    </main>
  );
}

function sortState(filter: { sort?: string; dir?: string }, key: string): "ascending" | "descending" | undefined {
  if ((filter.sort ?? "created") !== key) return undefined;
  return filter.dir === "asc" ? "ascending" : "descending";
}

function Select({
  id,
  name,
  label,
  value,
  any,
  children,
}: {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  any: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} className={inputClass}>
        <option value="">{any}</option>
        {children}
      </select>
    </div>
  );
}
