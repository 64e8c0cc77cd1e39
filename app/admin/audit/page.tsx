// /admin/audit - every back-office change, newest first, filtered and paged in the database.
import type { Metadata } from "next";
import Link from "next/link";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { AdminHeading, TableRegion, param, tableClass, tdClass, thClass, type AdminSearchParams } from "@/components/admin/ui";
import { AUDIT_ACTIONS } from "@/lib/admin/audit-catalog";
import { auditActionName, auditChanges, auditNoteText, auditTargetName } from "@/lib/admin/audit-text";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { intlLocale } from "@/lib/i18n/config";
import { STORE_TIME_ZONE } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { adminDaySchema } from "@/lib/schemas/bounds";
import { listAudit } from "@/lib/services/audit";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.admin.audit.heading };
}

const PAGE_SIZE = 50;

/** A calendar day in Moscow time (the store's), as the start of that day; undefined when not a day of the back office's window. */
function moscowDay(value: string | undefined, plusDays = 0): Date | undefined {
  if (!value || !adminDaySchema.safeParse(value).success) return undefined;
  return new Date(Date.parse(`${value}T00:00:00+03:00`) + plusDays * 86_400_000);
}

export default async function AuditPage({ searchParams }: { searchParams: AdminSearchParams }) {
  await requirePermission("audit:read", "/admin/audit");
  const [{ locale, t }, params] = await Promise.all([getMessages(), searchParams]);
  const m = t.admin.audit;
  const filter = {
    actor: param(params, "actor")?.slice(0, 254),
    action: param(params, "action")?.slice(0, 64),
    targetId: param(params, "target")?.slice(0, 200),
    from: param(params, "from"),
    to: param(params, "to"),
  };
  const beforeId = Number(param(params, "before"));
  const { entries, nextBefore } = await listAudit(getDb(), {
    actor: filter.actor,
    action: filter.action,
    targetId: filter.targetId,
    from: moscowDay(filter.from),
    to: moscowDay(filter.to, 1),
    before: Number.isSafeInteger(beforeId) && beforeId > 0 ? beforeId : undefined,
    limit: PAGE_SIZE,
  });
  // Moscow time, as the date filter reads its days; the zone is printed beside it.
  const dateTime = new Intl.DateTimeFormat(intlLocale(locale), {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZone: STORE_TIME_ZONE,
    timeZoneName: "short",
  });
  const query = (extra: Record<string, string>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...filter, target: filter.targetId, ...extra })) if (v && k !== "targetId") q.set(k, v);
    return `/admin/audit?${q}`;
  };

  return (
    <main id="main" className="space-y-6">
      <AdminHeading title={m.heading} intro={m.intro} />
      <form method="get" action="/admin/audit" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end">
        <div className="lg:col-span-2">
          <label htmlFor="audit-actor" className={labelClass}>
            {m.filterActor}
          </label>
          <input id="audit-actor" name="actor" defaultValue={filter.actor} className={`mt-1 ${inputClass}`} />
        </div>
        <div>
          <label htmlFor="audit-action" className={labelClass}>
            {m.filterAction}
          </label>
          <select id="audit-action" name="action" defaultValue={filter.action ?? ""} className={`mt-1 ${inputClass}`}>
            <option value="">{m.anyAction}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {m.actions[action]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-target" className={labelClass}>
            {m.filterTarget}
          </label>
          <input id="audit-target" name="target" defaultValue={filter.targetId} className={`mt-1 ${inputClass}`} />
        </div>
        <div>
          <label htmlFor="audit-from" className={labelClass}>
            {m.from}
          </label>
          <input id="audit-from" name="from" type="date" defaultValue={filter.from} className={`mt-1 ${inputClass}`} />
        </div>
        <div>
          <label htmlFor="audit-to" className={labelClass}>
            {m.to}
          </label>
          <input id="audit-to" name="to" type="date" defaultValue={filter.to} className={`mt-1 ${inputClass}`} />
        </div>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-6">
          <button type="submit" className={primaryButtonClass}>
            {m.apply}
          </button>
          <Link href="/admin/audit" className={secondaryButtonClass}>
            {m.reset}
          </Link>
        </div>
      </form>

      {entries.length === 0 ? (
        <p className="text-slate-300">{m.empty}</p>
      ) : (
        <TableRegion label={m.heading}>
          <table className={tableClass}>
            <thead>
              <tr>
                <th scope="col" className={thClass}>
                  {m.at}
                </th>
                <th scope="col" className={thClass}>
                  {m.actor}
                </th>
                <th scope="col" className={thClass}>
                  {m.action}
                </th>
                <th scope="col" className={thClass}>
                  {m.target}
                </th>
                <th scope="col" className={thClass}>
                  {m.change}
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className={`${tdClass} min-w-32`}>{dateTime.format(entry.at)}</td>
                  <td className={`${tdClass} min-w-40 wrap-anywhere`}>{entry.actor}</td>
                  <td className={`${tdClass} min-w-32`}>{auditActionName(entry.action, t)}</td>
                  <td className={`${tdClass} min-w-32 text-xs wrap-anywhere`}>
                    {entry.targetType === "intent" ? (
                      <Link href={`/admin/orders/${entry.targetId}`} className="text-sky-300 underline">
                        {auditTargetName(entry.targetType, t)} {entry.targetId}
                      </Link>
                    ) : (
                      `${auditTargetName(entry.targetType, t)} ${entry.targetId}`
                    )}
                  </td>
                  <td className={`${tdClass} min-w-56 text-xs`}>
                    <dl className="space-y-1">
                      {auditChanges(entry, t, locale).map((c) => (
                        <div key={c.key} className="wrap-anywhere">
                          <dt className="inline font-semibold text-slate-300">{c.field}: </dt>
                          <dd className="inline">
                            {c.before !== undefined && c.after !== undefined ? (
                              <>
                                <span className="text-slate-400">{c.before}</span> → <span className="text-slate-100">{c.after}</span>
                              </>
                            ) : (
                              <span className="text-slate-100">{c.before ?? c.after}</span>
                            )}
                          </dd>
                        </div>
                      ))}
                      {entry.note ? (
                        <div className="wrap-anywhere">
                          <dt className="inline font-semibold text-slate-300">{m.note}: </dt>
                          <dd className="inline">{auditNoteText(entry, t)}</dd>
                        </div>
                      ) : null}
                    </dl>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <nav aria-label={m.heading} className="flex justify-between gap-2">
        {params.before ? (
          <Link href={query({})} className={secondaryButtonClass}>
            ← {m.newest}
          </Link>
        ) : (
          <span />
        )}
        {nextBefore ? (
          <Link href={query({ before: String(nextBefore) })} rel="next" className={secondaryButtonClass}>
            {m.older} →
          </Link>
        ) : null}
      </nav>
    </main>
  );
}
