// /admin/queue - paid orders waiting for a person to send them, the longest wait first, with what
// the person needs to send each one and the controls to take it and report on it.
import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/account/local-time";
import { cardClass, inputClass, labelClass, linkClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { DeliveryActions } from "@/components/admin/delivery-actions";
import { AdminHeading, badgeClass, Pager, param, type AdminSearchParams } from "@/components/admin/ui";
import { can } from "@/lib/admin/permissions";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/config";
import { format, plural } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";
import { regionName } from "@/lib/i18n/regions";
import { getMessages } from "@/lib/i18n/server";
import { pageNumber } from "@/lib/schemas/bounds";
import { listFulfilmentQueue, QUEUE_VIEWS, type QueueEntry, type QueueView } from "@/lib/services/fulfilment-queue";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminPartners.queue.title };
}

const PAGE_SIZE = 20;
const MINUTE = 60_000;

function waited(ms: number, d: Messages["adminPartners"]["queue"]["duration"]): string {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return format(d.days, { d: days, h: hours });
  if (hours > 0) return format(d.hours, { h: hours, m: minutes % 60 });
  return format(d.minutes, { m: minutes });
}

export default async function QueuePage({ searchParams }: { searchParams: AdminSearchParams }) {
  const staff = await requirePermission("orders:fulfil", "/admin/queue");
  const [{ locale, t }, sp] = await Promise.all([getMessages(), searchParams]);
  const m = t.adminPartners.queue;
  const requested = param(sp, "view");
  const view: QueueView = QUEUE_VIEWS.find((v) => v === requested) ?? "manual";
  const search = param(sp, "q")?.trim().slice(0, 200);
  const page = pageNumber(param(sp, "page"));
  const { entries, total } = await listFulfilmentQueue(getDb(), { view, viewerId: staff.user.id, search, page, pageSize: PAGE_SIZE });
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const empty = view === "mine" ? m.emptyMine : view === "retrying" ? m.emptyRetrying : m.empty;

  return (
    <main id="main" className="space-y-4">
      <AdminHeading title={m.title} intro={m.intro} />
      <nav aria-label={m.viewsLabel}>
        <ul className="flex flex-wrap gap-2">
          {QUEUE_VIEWS.map((v) => (
            <li key={v}>
              <Link
                href={v === "manual" ? "/admin/queue" : `/admin/queue?view=${v}`}
                aria-current={v === view ? "page" : undefined}
                className={`inline-flex min-h-10 items-center rounded-full border px-4 text-sm ${
                  v === view
                    ? "border-sky-400 bg-sky-400/10 font-semibold text-sky-200"
                    : "border-slate-600 text-slate-200 hover:bg-slate-800"
                }`}
              >
                {m.views[v]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <form method="get" action="/admin/queue" role="search" className="flex flex-wrap items-end gap-2">
        {view === "manual" ? null : <input type="hidden" name="view" value={view} />}
        <div className="min-w-56 flex-1 sm:max-w-sm">
          <label htmlFor="queue-search" className={labelClass}>
            {m.search}
          </label>
          <input id="queue-search" name="q" type="search" defaultValue={search ?? ""} className={`${inputClass} mt-1`} />
        </div>
        <button type="submit" className={primaryButtonClass}>
          {m.apply}
        </button>
        {search ? (
          <Link href={view === "manual" ? "/admin/queue" : `/admin/queue?view=${view}`} className={secondaryButtonClass}>
            {m.reset}
          </Link>
        ) : null}
      </form>
      <p className="text-sm text-slate-300">{plural(locale, total, m.count)}</p>
      {entries.length === 0 ? (
        <p className={`${cardClass} text-slate-300`}>{empty}</p>
      ) : (
        <ol className="space-y-4">
          {entries.map((entry) => (
            <li key={entry.deliveryId}>
              <QueueCard entry={entry} locale={locale} t={t} viewerId={staff.user.id} canFulfil={can(staff.role, "orders:fulfil")} />
            </li>
          ))}
        </ol>
      )}
      {pageCount > 1 ? (
        <Pager
          path="/admin/queue"
          params={{ view: view === "manual" ? undefined : view, q: search }}
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

function QueueCard({
  entry,
  locale,
  t,
  viewerId,
  canFulfil,
}: {
  entry: QueueEntry;
  locale: Locale;
  t: Messages;
  viewerId: string;
  canFulfil: boolean;
}) {
  const m = t.adminPartners.queue;
  const game = (locale === "ru" ? entry.gameTitleRu : null) ?? entry.gameTitle;
  const headingId = `order-${entry.deliveryId}`;
  const external = { target: "_blank", rel: "noopener noreferrer" } as const;
  const row = (label: string, value: React.ReactNode) => (
    <div className="min-w-0">
      <dt className="text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-100">{value}</dd>
    </div>
  );
  const account = entry.kind === "gift" ? entry.recipientSteamId : entry.account;
  return (
    <article aria-labelledby={headingId} className={cardClass}>
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-words text-white">
            {game}
            {entry.kind === "gift" && entry.edition ? <span className="font-normal text-slate-300"> — {entry.edition}</span> : null}
            {entry.kind === "gear" && entry.itemTitle ? <span className="font-normal text-slate-300"> — {entry.itemTitle}</span> : null}
          </h2>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-300">
            <span className={badgeClass}>{entry.kind === "gift" ? m.gift : m.gear}</span>
            <strong className="font-semibold text-amber-200">{format(m.waited, { time: waited(entry.waitedMs, m.duration) })}</strong>
            <span>
              {m.paidAt} <LocalTime value={entry.paidAt.toISOString()} />
            </span>
          </p>
        </div>
        <Link
          href={`/admin/orders/${entry.intentId}`}
          className={`${linkClass} text-sm`}
          aria-label={format(m.openOrder, { id: entry.intentId })}
        >
          {m.order} {entry.intentId.slice(0, 8)}
        </Link>
      </header>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {entry.kind === "gift" ? (
          <>
            {row(
              m.inviteUrl,
              entry.inviteUrl ? (
                <a href={entry.inviteUrl} className={`${linkClass} break-all`} {...external}>
                  {entry.inviteUrl}
                </a>
              ) : (
                "—"
              ),
            )}
            {row(
              m.account,
              account ? (
                <a href={`https://steamcommunity.com/profiles/${account}`} className={`${linkClass} break-all`} {...external}>
                  {format(m.steamProfile, { id: account })}
                </a>
              ) : (
                m.notDecoded
              ),
            )}
            {row(m.region, entry.region ? `${regionName(entry.region, locale)} (${entry.region})` : "—")}
            {row(m.edition, entry.edition ?? "—")}
          </>
        ) : (
          <>
            {row(
              m.tradeLink,
              entry.tradeLink ? (
                <a href={entry.tradeLink} className={`${linkClass} break-all`} {...external}>
                  {entry.tradeLink}
                </a>
              ) : (
                "—"
              ),
            )}
            {row(m.account, <span className="break-all">{account ?? "—"}</span>)}
            {row(m.platform, `${game} (${entry.appId})`)}
            {row(m.item, entry.itemTitle ? `${entry.itemTitle} (${entry.item})` : (entry.item ?? "—"))}
          </>
        )}
        {row(m.buyer, <span className="break-all">{entry.email}</span>)}
        {row(m.step, t.adminPartners.actions.steps[entry.step])}
        {entry.provider === "manual"
          ? row(m.takenBy, entry.assignedTo ? (entry.assignedTo === viewerId ? m.you : (entry.assigneeEmail ?? "—")) : m.nobody)
          : row(m.attempts, String(entry.attempts))}
        {entry.provider !== "manual" ? row(m.nextAttempt, <LocalTime value={entry.nextAttemptAt.toISOString()} />) : null}
      </dl>
      <div className="mt-4 border-t border-slate-800 pt-4">
        <DeliveryActions
          deliveryId={entry.deliveryId}
          status={entry.status}
          step={entry.step}
          provider={entry.provider}
          kind={entry.kind}
          assignedTo={entry.assignedTo}
          assigneeEmail={entry.assigneeEmail}
          viewerId={viewerId}
          canFulfil={canFulfil}
        />
      </div>
    </article>
  );
}
