// /admin/mail/{id} - one message: its headers, the HTML part in a sandboxed frame (no scripts, no
// same-origin access; links open in a new tab) and the plain-text part.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LocalTime } from "@/components/account/local-time";
import { linkClass } from "@/components/account/styles";
import { AdminHeading } from "@/components/admin/ui";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { getMail } from "@/lib/mail/kept";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminPartners.mail.title };
}

export default async function MailMessagePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePermission("mail:read", `/admin/mail/${encodeURIComponent(id)}`);
  const { t } = await getMessages();
  const m = t.adminPartners.mail;
  const message = await getMail(getDb(), id);
  if (!message) notFound();
  const srcDoc = message.html.replace(/<head>/i, '<head><base target="_blank">');
  const row = (label: string, value: React.ReactNode) => (
    <>
      <dt className="text-slate-400">{label}</dt>
      <dd className="min-w-0 break-all">{value}</dd>
    </>
  );
  return (
    <main id="main" className="space-y-4">
      <p>
        <Link href="/admin/mail" className={linkClass}>
          ← {m.back}
        </Link>
      </p>
      <AdminHeading title={message.subject} />
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {row(m.to, message.recipient)}
        {row(m.kind, m.kinds[message.kind])}
        {row(m.language, t.adminOrders.order.locales[message.locale])}
        {row(m.status, m.statuses[message.status])}
        {row(m.created, <LocalTime value={message.createdAt.toISOString()} />)}
        {message.sentAt ? row(m.sentAt, <LocalTime value={message.sentAt.toISOString()} />) : null}
        {row(m.attempts, String(message.attemptCount))}
        {message.lastError ? row(m.lastError, message.lastError) : null}
        {message.intentId
          ? row(
              m.order,
              <Link href={`/admin/orders/${message.intentId}`} className={linkClass}>
                {message.intentId}
              </Link>,
            )
          : null}
        {row(m.messageId, message.messageId)}
      </dl>
      <h2 className="text-lg font-semibold text-white">{m.htmlPart}</h2>
      <iframe
        title={format(m.htmlFrame, { subject: message.subject })}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        srcDoc={srcDoc}
        className="h-[720px] w-full rounded-md border border-slate-700 bg-white"
      />
      <h2 className="text-lg font-semibold text-white">{m.textPart}</h2>
      <pre className="rounded-md border border-slate-700 bg-slate-900 p-4 text-sm wrap-anywhere whitespace-pre-wrap text-slate-100">
        {message.text}
      </pre>
    </main>
  );
}
