// /admin/promo-codes - promo codes with their state, uses and the revenue they touched; disable or enable one.
import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/account/local-time";
import { inputClass, labelClass, linkClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { ActionButton } from "@/components/admin/action-button";
import { AdminHeading, Pager, param, tableClass, tableWrapClass, tdClass, thClass, type AdminSearchParams } from "@/components/admin/ui";
import { STATE_TONE } from "@/components/admin/tone";
import { can } from "@/lib/admin/permissions";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { intlLocale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { formatRub } from "@/lib/money";
import { PROMO_STATES, promoState } from "@/lib/schemas/admin-catalog";
import { pageNumber } from "@/lib/schemas/bounds";
import { listPromoCodes } from "@/lib/services/admin-promo-codes";
import { disablePromoCodeAction, enablePromoCodeAction } from "./actions";

const PAGE_SIZE = 25;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminCatalog.promo.heading };
}

export default async function PromoCodesPage({ searchParams }: { searchParams: AdminSearchParams }) {
  const staff = await requirePermission("promo:read", "/admin/promo-codes");
  const [{ locale, t }, params] = await Promise.all([getMessages(), searchParams]);
  const m = t.adminCatalog.promo;
  const c = t.adminCatalog.common;
  const q = param(params, "q")?.slice(0, 64);
  const stateParam = param(params, "state");
  const state = PROMO_STATES.find((s) => s === stateParam);
  const page = pageNumber(param(params, "page"));
  const created = param(params, "created");
  const { items, total } = await listPromoCodes(getDb(), { q, state, page, pageSize: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const writer = can(staff.role, "promo:write");
  const rub = (kopecks: number) => formatRub(kopecks, intlLocale(locale));
  const now = new Date();

  return (
    <main id="main" className="space-y-4">
      <AdminHeading title={m.heading} intro={m.intro}>
        {writer ? (
          <Link href="/admin/promo-codes/new" className={primaryButtonClass}>
            {m.create}
          </Link>
        ) : null}
      </AdminHeading>
      {created ? (
        <p role="status" className="text-sm text-emerald-300">
          {format(m.created, { code: created.slice(0, 64) })}
        </p>
      ) : null}
      <form method="get" className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="promo-q" className={labelClass}>
            {m.search}
          </label>
          <input id="promo-q" name="q" defaultValue={q} className={`${inputClass} mt-1 w-48 uppercase`} spellCheck={false} />
        </div>
        <div>
          <label htmlFor="promo-state" className={labelClass}>
            {m.state}
          </label>
          <select id="promo-state" name="state" defaultValue={state ?? ""} className={`${inputClass} mt-1 w-48`}>
            <option value="">{c.all}</option>
            {PROMO_STATES.map((s) => (
              <option key={s} value={s}>
                {m.states[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButtonClass}>
          {c.filter}
        </button>
        {q || state ? (
          <Link href="/admin/promo-codes" className={`${linkClass} min-h-10 content-center text-sm`}>
            {c.reset}
          </Link>
        ) : null}
      </form>
      <p className="text-sm text-slate-300">{format(c.found, { count: total })}</p>
      {items.length === 0 ? (
        <p className="text-slate-300">{c.empty}</p>
      ) : (
        <div className={tableWrapClass}>
          <table className={`${tableClass} min-w-[60rem]`}>
            <thead>
              <tr>
                <th scope="col" className={thClass}>
                  {m.code}
                </th>
                <th scope="col" className={thClass}>
                  {m.discount}
                </th>
                <th scope="col" className={thClass}>
                  {m.appliesTo}
                </th>
                <th scope="col" className={thClass}>
                  {m.window}
                </th>
                <th scope="col" className={thClass}>
                  {m.usage}
                </th>
                <th scope="col" className={thClass}>
                  {m.state}
                </th>
                <th scope="col" className={thClass}>
                  {m.revenue}
                </th>
                {writer ? (
                  <th scope="col" className={thClass}>
                    {c.actions}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {items.map((p) => {
                const s = promoState(p, now);
                return (
                  <tr key={p.id}>
                    <td className={`${tdClass} font-mono font-semibold`}>
                      {writer ? (
                        <Link href={`/admin/promo-codes/${p.id}`} className={linkClass}>
                          {p.code}
                        </Link>
                      ) : (
                        p.code
                      )}
                    </td>
                    <td className={tdClass}>{p.kind === "percent" ? `${p.value}%` : rub(p.value)}</td>
                    <td className={tdClass}>
                      {m.targets[p.appliesTo]}
                      {p.appIds ? (
                        <span className="block text-xs text-slate-400">{format(m.onlyApps, { apps: p.appIds.join(", ") })}</span>
                      ) : null}
                    </td>
                    <td className={`${tdClass} text-xs`}>
                      {p.validFrom || p.validUntil ? (
                        <>
                          {p.validFrom ? (
                            <span className="block">
                              → <LocalTime value={p.validFrom.toISOString()} />
                            </span>
                          ) : null}
                          {p.validUntil ? (
                            <span className="block">
                              ← <LocalTime value={p.validUntil.toISOString()} />
                            </span>
                          ) : null}
                        </>
                      ) : (
                        m.always
                      )}
                    </td>
                    <td className={tdClass}>
                      {p.maxUses === null ? (
                        <>
                          {p.uses} <span className="text-xs text-slate-400">({m.unlimited})</span>
                        </>
                      ) : (
                        format(m.usesOf, { uses: p.uses, max: p.maxUses })
                      )}
                    </td>
                    <td className={tdClass}>
                      <span className={STATE_TONE[s]}>{m.states[s]}</span>
                    </td>
                    <td className={`${tdClass} text-xs`}>
                      {p.paidCount === 0 && p.refundedCount === 0 ? (
                        <span className="text-slate-400">{m.noRevenue}</span>
                      ) : (
                        <>
                          <span className="block">{format(m.paid, { amount: rub(p.paidAmount), count: p.paidCount })}</span>
                          <span className="block text-slate-300">{format(m.discounted, { amount: rub(p.discountAmount) })}</span>
                          {p.refundedCount > 0 ? (
                            <span className="block text-amber-200">
                              {format(m.refunded, { amount: rub(p.refundedAmount), count: p.refundedCount })}
                            </span>
                          ) : null}
                        </>
                      )}
                    </td>
                    {writer ? (
                      <td className={tdClass}>
                        {p.disabledAt ? (
                          <ActionButton
                            action={enablePromoCodeAction}
                            input={{ id: p.id }}
                            label={m.enable}
                            ariaLabel={format(m.enableLabel, { code: p.code })}
                            done={m.enabled}
                          />
                        ) : (
                          <ActionButton
                            action={disablePromoCodeAction}
                            input={{ id: p.id }}
                            label={m.disable}
                            ariaLabel={format(m.disableLabel, { code: p.code })}
                            done={m.disabled}
                          />
                        )}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        path="/admin/promo-codes"
        params={{ q, state }}
        page={page}
        pageCount={pages}
        labels={{ previous: c.previous, next: c.next, pageOf: format(c.pageOf, { page, pages }) }}
      />
    </main>
  );
}
