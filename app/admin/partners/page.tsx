// /admin/partners - the partner accounts and every other owner of API tokens or webhook endpoints:
// who is a partner (made and ended here, audited), a partner's cap on open holds, their tokens
// (revocable), their endpoints and the notifications that do not get through. No token hash or
// secret is ever read.
import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/account/local-time";
import { cardClass, inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { ActionButton } from "@/components/admin/action-button";
import { ConfirmButton } from "@/components/admin/confirm-button";
import { HoldCapForm, MakePartnerForm } from "@/components/admin/partner-forms";
import { RevokePartnerToken } from "@/components/admin/revoke-partner-token";
import {
  AdminHeading,
  badgeClass,
  Pager,
  param,
  tableClass,
  tableWrapClass,
  tdClass,
  thClass,
  type AdminSearchParams,
} from "@/components/admin/ui";
import { can } from "@/lib/admin/permissions";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { format, plural } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";
import { getMessages } from "@/lib/i18n/server";
import { pageNumber } from "@/lib/schemas/bounds";
import { listPartners, type FailingDelivery, type Partner } from "@/lib/services/partners";
import { makePartnerAction, removePartnerAction, setPartnerHoldCapAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminPartners.partners.title };
}

const PAGE_SIZE = 10;

const tagClass = "inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap";
const partnerBadgeClass = `${tagClass} border-emerald-500/60 text-emerald-200`;
const otherBadgeClass = `${tagClass} border-amber-500/60 text-amber-200`;

const time = (value: Date | null, none: string) => (value ? <LocalTime value={value.toISOString()} /> : none);

export default async function PartnersPage({ searchParams }: { searchParams: AdminSearchParams }) {
  const staff = await requirePermission("partners:read", "/admin/partners");
  const [{ locale, t }, sp] = await Promise.all([getMessages(), searchParams]);
  const m = t.adminPartners.partners;
  const email = param(sp, "email")?.trim().slice(0, 200);
  const kindParam = param(sp, "kind");
  const kind = kindParam === "partners" || kindParam === "others" ? kindParam : undefined;
  const page = pageNumber(param(sp, "page"));
  const { partners, total } = await listPartners(getDb(), { email, kind, page, pageSize: PAGE_SIZE });
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const mayWrite = can(staff.role, "partners:write");

  return (
    <main id="main" className="space-y-4">
      <AdminHeading title={m.title} intro={m.intro} />
      {mayWrite ? (
        <section aria-labelledby="make-partner" className={`${cardClass} space-y-3`}>
          <h2 id="make-partner" className="text-lg font-semibold text-white">
            {m.makeTitle}
          </h2>
          <MakePartnerForm action={makePartnerAction} />
        </section>
      ) : null}
      <form method="get" action="/admin/partners" role="search" className="flex flex-wrap items-end gap-2">
        <div className="min-w-56 flex-1 sm:max-w-sm">
          <label htmlFor="partner-email" className={labelClass}>
            {m.search}
          </label>
          <input id="partner-email" name="email" type="search" defaultValue={email ?? ""} className={`${inputClass} mt-1`} />
        </div>
        <div>
          <label htmlFor="partner-kind" className={labelClass}>
            {m.kind}
          </label>
          <select id="partner-kind" name="kind" defaultValue={kind ?? ""} className={`${inputClass} mt-1`}>
            <option value="">{m.kinds.all}</option>
            <option value="partners">{m.kinds.partners}</option>
            <option value="others">{m.kinds.others}</option>
          </select>
        </div>
        <button type="submit" className={primaryButtonClass}>
          {m.apply}
        </button>
        {email || kind ? (
          <Link href="/admin/partners" className={secondaryButtonClass}>
            {m.reset}
          </Link>
        ) : null}
      </form>
      <p className="text-sm text-slate-300">{plural(locale, total, m.count)}</p>
      {partners.length === 0 ? (
        <p className={`${cardClass} text-slate-300`}>{m.empty}</p>
      ) : (
        partners.map((p) => <PartnerCard key={p.userId} partner={p} t={t} mayWrite={mayWrite} />)
      )}
      {pageCount > 1 ? (
        <Pager
          path="/admin/partners"
          params={{ email, kind }}
          page={page}
          pageCount={pageCount}
          labels={{
            previous: t.admin.table.previous,
            next: t.admin.table.next,
            pageOf: format(t.admin.table.pageOf, { page, pages: pageCount }),
          }}
        />
      ) : null}
    </main>
  );
}

function PartnerCard({ partner, t, mayWrite }: { partner: Partner; t: Messages; mayWrite: boolean }) {
  const m = t.adminPartners.partners;
  const headingId = `partner-${partner.userId}`;
  const cap = partner.partner?.holdCap ?? env.HOLD_LIMIT_PER_PARTNER;
  return (
    <section aria-labelledby={headingId} className={`${cardClass} space-y-5`}>
      <header className="space-y-1">
        <h2 id={headingId} className="flex flex-wrap items-center gap-2 text-lg font-semibold break-all text-white">
          {partner.email}
          <span className={partner.partner ? partnerBadgeClass : otherBadgeClass}>
            {partner.partner ? m.partnerBadge : m.notPartnerBadge}
          </span>
        </h2>
        <p className="text-sm text-slate-400">
          {partner.name ? `${partner.name} · ` : null}
          {m.since} <LocalTime value={partner.createdAt.toISOString()} />
        </p>
      </header>

      {partner.partner ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-300">
            {m.partnerSince} <LocalTime value={partner.partner.createdAt.toISOString()} />,{" "}
            {format(m.madeBy, { by: partner.partner.createdBy })}. {format(m.openHolds, { count: partner.openHolds, max: cap })}
          </p>
          {mayWrite ? (
            <div className="flex flex-wrap items-start justify-between gap-4">
              <HoldCapForm
                userId={partner.userId}
                holdCap={partner.partner.holdCap}
                defaultCap={env.HOLD_LIMIT_PER_PARTNER}
                email={partner.email}
                action={setPartnerHoldCapAction}
              />
              <ConfirmButton
                label={m.remove}
                accessibleName={format(m.removeLabel, { email: partner.email })}
                question={format(m.removeQuestion, { email: partner.email })}
                confirmLabel={m.removeConfirm}
                action={removePartnerAction}
                input={{ userId: partner.userId }}
              />
            </div>
          ) : null}
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-amber-200">
            {format(m.notPartner, { max: env.HOLD_LIMIT_PER_ACCOUNT })}{" "}
            {format(m.openHolds, { count: partner.openHolds, max: env.HOLD_LIMIT_PER_ACCOUNT })}
          </p>
          {mayWrite ? (
            <ActionButton
              action={makePartnerAction}
              input={{ email: partner.email }}
              label={m.makeThis}
              ariaLabel={format(m.makeThisLabel, { email: partner.email })}
              done={m.madeThis}
            />
          ) : null}
        </div>
      )}

      <div>
        <h3 className="font-semibold text-slate-100">{m.tokens}</h3>
        {partner.tokens.length === 0 ? (
          <p className="mt-2 text-sm text-slate-400">{m.noTokens}</p>
        ) : (
          <div className={tableWrapClass}>
            <table className={tableClass}>
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    {m.tokenName}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.prefix}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.scopes}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.created}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.lastUsed}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.expires}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.state}
                  </th>
                </tr>
              </thead>
              <tbody>
                {partner.tokens.map((tk) => {
                  const expired = tk.expired;
                  return (
                    <tr key={tk.id}>
                      <th scope="row" className={`${tdClass} font-medium break-words`}>
                        {tk.name}
                      </th>
                      <td className={`${tdClass} font-mono text-xs`}>{tk.prefix}…</td>
                      <td className={tdClass}>
                        <ul className="flex flex-wrap gap-1">
                          {tk.scopes.map((s) => (
                            <li key={s} className={badgeClass}>
                              {s}
                            </li>
                          ))}
                        </ul>
                      </td>
                      <td className={tdClass}>{time(tk.createdAt, "—")}</td>
                      <td className={tdClass}>{time(tk.lastUsedAt, m.never)}</td>
                      <td className={tdClass}>{time(tk.expiresAt, m.noExpiry)}</td>
                      <td className={tdClass}>
                        {/* One shape whether revoked or not, so the revoke control keeps its "revoked" notice across the refresh. */}
                        <div className="flex flex-wrap items-center gap-2">
                          {tk.revokedAt ? (
                            <span className="text-slate-400">
                              {m.revokedAt} <LocalTime value={tk.revokedAt.toISOString()} />
                            </span>
                          ) : (
                            <span className={expired ? "text-amber-200" : "text-emerald-300"}>{expired ? m.expired : m.active}</span>
                          )}
                          {mayWrite ? <RevokePartnerToken tokenId={tk.id} name={tk.name} revoked={tk.revokedAt !== null} /> : null}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <div>
        <h3 className="font-semibold text-slate-100">{m.endpoints}</h3>
        {partner.endpoints.length === 0 ? (
          <p className="mt-2 text-sm text-slate-400">{m.noEndpoints}</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {partner.endpoints.map((e) => (
              <li key={e.id} className="rounded-md border border-slate-800 p-3">
                <p className="font-mono text-sm break-all text-slate-100">{e.url}</p>
                <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
                  <div>
                    <dt className="text-xs text-slate-400">{m.events}</dt>
                    <dd className="break-words">{e.eventTypes.join(", ")}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-400">{m.state}</dt>
                    <dd>{e.enabled ? m.enabled : m.disabled}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-400">{m.lastDelivery}</dt>
                    <dd>
                      {e.lastDeliveryAt ? (
                        <>
                          <LocalTime value={e.lastDeliveryAt.toISOString()} /> ({e.lastDeliveryStatus})
                        </>
                      ) : (
                        m.noDeliveries
                      )}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-400">{m.failing}</dt>
                    <dd className={e.failingCount > 0 ? "font-semibold text-red-300" : "text-emerald-300"}>
                      {e.failingCount > 0 ? format(m.failingCount, { count: e.failingCount }) : m.failingNone}
                    </dd>
                  </div>
                </dl>
                <FailingList deliveries={e.failing} t={t} />
              </li>
            ))}
          </ul>
        )}
      </div>

      {partner.callbackFailingCount > 0 ? (
        <div>
          <h3 className="font-semibold text-slate-100">
            {m.callbacks}: <span className="text-red-300">{format(m.failingCount, { count: partner.callbackFailingCount })}</span>
          </h3>
          <FailingList deliveries={partner.callbackFailing} t={t} />
        </div>
      ) : null}
    </section>
  );
}

function FailingList({ deliveries, t }: { deliveries: FailingDelivery[]; t: Messages }) {
  const m = t.adminPartners.partners;
  if (deliveries.length === 0) return null;
  return (
    <div className={tableWrapClass}>
      <table className={tableClass}>
        <caption className="px-3 py-2 text-left text-sm font-medium text-slate-300">{m.latestFailing}</caption>
        <thead>
          <tr>
            <th scope="col" className={thClass}>
              {m.created}
            </th>
            <th scope="col" className={thClass}>
              {m.event}
            </th>
            <th scope="col" className={thClass}>
              {m.state}
            </th>
            <th scope="col" className={thClass}>
              {m.attempts}
            </th>
            <th scope="col" className={thClass}>
              {m.lastError}
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <td className={tdClass}>
                <LocalTime value={d.createdAt.toISOString()} />
              </td>
              <td className={tdClass}>
                {d.eventType}
                {d.intentId ? (
                  <>
                    {" · "}
                    <Link href={`/admin/orders/${d.intentId}`} className="text-sky-300 underline underline-offset-2 hover:text-sky-200">
                      {d.intentId.slice(0, 8)}
                    </Link>
                  </>
                ) : null}
                <p className="text-xs break-all text-slate-400">{d.url}</p>
              </td>
              <td className={tdClass}>{m.status[d.status]}</td>
              <td className={`${tdClass} tabular-nums`}>{d.attempts}</td>
              <td className={`${tdClass} break-words`}>
                {d.lastStatus !== null ? format(m.httpStatus, { status: d.lastStatus }) : null}
                {d.lastStatus !== null && d.lastError ? " · " : null}
                {d.lastError ?? (d.lastStatus === null ? m.noAnswer : null)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
