import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db/client";
import { listMail } from "@/lib/mail/kept";
import { requireDevMailAccess } from "./access";

export const metadata: Metadata = { title: "Outgoing mail (development)", robots: { index: false, follow: false } };

// /dev/mail - the mail the store kept because no SMTP_URL is set, newest first. A development page
// until the back office has its own; English only, like the logs.
export default async function DevMailPage() {
  await requireDevMailAccess();
  const messages = await listMail(getDb());
  return (
    <main id="main" className="mx-auto w-full max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Outgoing mail</h1>
      <p className="mt-2 text-slate-300">
        No SMTP_URL is set, so messages are kept here instead of sent. Shown only to this machine; the 100 newest.
      </p>
      {messages.length === 0 ? (
        <p className="mt-6 text-slate-400">No mail yet. Pay an intent and its receipt appears here.</p>
      ) : (
        <table className="mt-6 w-full text-left text-sm">
          <thead className="text-slate-400">
            <tr>
              <th className="py-2 pr-4 font-medium">Created</th>
              <th className="py-2 pr-4 font-medium">To</th>
              <th className="py-2 pr-4 font-medium">Subject</th>
              <th className="py-2 pr-4 font-medium">Kind</th>
              <th className="py-2 font-medium">Status</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((m) => (
              <tr key={m.id} className="border-t border-slate-800">
                <td className="py-2 pr-4 whitespace-nowrap tabular-nums">{m.createdAt.toISOString().replace("T", " ").slice(0, 19)}</td>
                <td className="py-2 pr-4 break-all">{m.recipient}</td>
                <td className="py-2 pr-4">
                  <Link href={`/dev/mail/${m.id}`} className="text-sky-300 underline underline-offset-2 hover:text-sky-200">
                    {m.subject}
                  </Link>
                </td>
                <td className="py-2 pr-4">
                  {m.kind} ({m.locale})
                </td>
                <td className="py-2">{m.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
