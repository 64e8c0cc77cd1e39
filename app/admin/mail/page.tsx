// /admin/mail - the store's outgoing mail, newest first, filtered by status and recipient in the URL.
import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/account/local-time";
import { cardClass, inputClass, labelClass, linkClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { AdminHeading, Pager, param, tableClass, tableWrapClass, tdClass, thClass, type AdminSearchParams } from "@/components/admin/ui";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { MAIL_MESSAGE_STATUSES } from "@/lib/db/schema";
import { format, plural } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { mailIsKept } from "@/lib/mail/config";
import { listMailPage } from "@/lib/mail/kept";
import { pageNumber } from "@/lib/schemas/bounds";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminPartners.mail.title };
}

const PAGE_SIZE = 30;

export default async function MailPage({ searchParams }: { searchParams: AdminSearchParams }) {
  await requirePermission("mail:read", "/admin/mail");
  const [{ locale, t }, sp] = await Promise.all([getMessages(), searchParams]);
  const m = t.adminPartners.mail;
  const requested = param(sp, "status");
  const status = MAIL_MESSAGE_STATUSES.find((s) => s === requested);
  const recipient = param(sp, "recipient")?.trim().slice(0, 200);
  const page = pageNumber(param(sp, "page"));
  const { messages, total } = await listMailPage(getDb(), { status, recipient, page, pageSize: PAGE_SIZE });
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <main id="main" className="space-y-4">
      <AdminHeading title={m.title} intro={m.intro} />
      {mailIsKept() ? (
        <p role="note" className="rounded-md border border-amber-400/60 bg-amber-950/40 px-4 py-3 text-sm text-amber-100">
          {m.kept}
        </p>
      ) : null}
      <form method="get" action="/admin/mail" role="search" className="flex flex-wrap items-end gap-2">
        <div className="min-w-40">
          <label htmlFor="mail-status" className={labelClass}>
            {m.status}
          </label>
          <select id="mail-status" name="status" defaultValue={status ?? ""} className={`${inputClass} mt-1`}>
            <option value="">{m.anyStatus}</option>
            {MAIL_MESSAGE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {m.statuses[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-56 flex-1 sm:max-w-sm">
          <label htmlFor="mail-recipient" className={labelClass}>
            {m.recipient}
          </label>
          <input id="mail-recipient" name="recipient" type="search" defaultValue={recipient ?? ""} className={`${inputClass} mt-1`} />
        </div>
        <button type="submit" className={primaryButtonClass}>
          {m.apply}
        </button>
        {status || recipient ? (
          <Link href="/admin/mail" className={secondaryButtonClass}>
            {m.reset}
          </Link>
        ) : null}
      </form>
      <p className="text-sm text-slate-300">{plural(locale, total, m.count)}</p>
      {messages.length === 0 ? (
        <p className={`${cardClass} text-slate-300`}>{m.empty}</p>
      ) : (
        <div className={tableWrapClass}>
          <table className={tableClass}>
            <thead>
              <tr>
                <th scope="col" className={thClass}>
                  {m.created}
                </th>
                <th scope="col" className={thClass}>
                  {m.subject}
                </th>
                <th scope="col" className={thClass}>
                  {m.recipient}
                </th>
                <th scope="col" className={thClass}>
                  {m.status}
                </th>
                <th scope="col" className={thClass}>
                  {m.order}
                </th>
              </tr>
            </thead>
            <tbody>
              {messages.map((msg) => (
                <tr key={msg.id}>
                  <td className={`${tdClass} min-w-28`}>
                    <LocalTime value={msg.createdAt.toISOString()} />
                  </td>
                  <td className={`${tdClass} min-w-48`}>
                    <Link href={`/admin/mail/${msg.id}`} className={linkClass}>
                      {msg.subject}
                    </Link>
                    <p className="text-xs text-slate-400">
                      {m.kinds[msg.kind]} · {t.adminOrders.order.locales[msg.locale]}
                    </p>
                  </td>
                  <td className={`${tdClass} break-all`}>{msg.recipient}</td>
                  <td className={tdClass}>
                    <span className={msg.status === "failed" ? "font-semibold text-red-300" : undefined}>{m.statuses[msg.status]}</span>
                    {msg.attemptCount > 0 ? (
                      <p className="text-xs text-slate-400">
                        {m.attempts}: {msg.attemptCount}
                      </p>
                    ) : null}
                    {msg.lastError ? <p className="text-xs break-words text-red-200">{msg.lastError}</p> : null}
                  </td>
                  <td className={tdClass}>
                    {msg.intentId ? (
                      <Link href={`/admin/orders/${msg.intentId}`} className={linkClass}>
                        {msg.intentId.slice(0, 8)}
                      </Link>
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pageCount > 1 ? (
        <Pager
          path="/admin/mail"
          params={{ status, recipient }}
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
