import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { withConfirmationProofs } from "@/lib/auth/confirmation-link";
import { getDb } from "@/lib/db/client";
import { getMail } from "@/lib/mail/kept";
import { requireDevMailAccess } from "../access";

export const metadata: Metadata = { title: "A message (development)", robots: { index: false, follow: false } };

// /dev/mail/{id} - one kept message: its headers, the HTML part in a sandboxed frame (no scripts,
// no same-origin access; links open in a new tab) and the plain-text part.
export default async function DevMailMessagePage({ params }: { params: Promise<{ id: string }> }) {
  await requireDevMailAccess();
  const { id } = await params;
  const message = await getMail(getDb(), id);
  if (!message) notFound();
  // As the SMTP server would have received it: with a confirmation link's proof (never stored).
  const html = withConfirmationProofs(message.html);
  const text = withConfirmationProofs(message.text);
  const srcDoc = html.replace(/<head>/i, '<head><base target="_blank">');
  return (
    <main id="main" className="mx-auto w-full max-w-5xl px-4 py-8">
      <p>
        <Link href="/dev/mail" className="text-sky-300 underline underline-offset-2 hover:text-sky-200">
          ← Outgoing mail
        </Link>
      </p>
      <h1 className="mt-4 text-2xl font-bold break-words">{message.subject}</h1>
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-400">To</dt>
        <dd className="break-all">{message.recipient}</dd>
        <dt className="text-slate-400">Kind</dt>
        <dd>
          {message.kind} ({message.locale}), {message.status}
        </dd>
        <dt className="text-slate-400">Created</dt>
        <dd className="tabular-nums">{message.createdAt.toISOString()}</dd>
        <dt className="text-slate-400">Message-ID</dt>
        <dd className="break-all">{message.messageId}</dd>
        <dt className="text-slate-400">About</dt>
        <dd className="break-all">{message.intentId ? `intent ${message.intentId}` : "the account"}</dd>
      </dl>
      <h2 className="mt-6 text-lg font-semibold">HTML part</h2>
      <iframe
        title={`HTML part of "${message.subject}"`}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        srcDoc={srcDoc}
        className="mt-2 h-[720px] w-full rounded-md border border-slate-700 bg-white"
      />
      <h2 className="mt-6 text-lg font-semibold">Text part</h2>
      <pre className="mt-2 rounded-md border border-slate-700 bg-slate-900 p-4 text-sm [overflow-wrap:anywhere] whitespace-pre-wrap">
        {text}
      </pre>
    </main>
  );
}
