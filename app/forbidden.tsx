import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { getStaff } from "@/lib/admin/session";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.admin.forbidden.title, robots: { index: false } };
}

// forbidden() anywhere (the back office's permission checks) renders this with status 403.
export default async function Forbidden() {
  const [{ t }, staff] = await Promise.all([getMessages(), getStaff()]);
  return (
    <main id="main" className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <p className="text-5xl font-black text-sky-300">403</p>
      <h1 className="mt-4 text-2xl font-bold text-white">{t.admin.forbidden.title}</h1>
      <p className="mt-3 text-slate-300">
        {staff ? format(t.admin.forbidden.role, { role: t.admin.roles[staff.role] }) : t.admin.forbidden.staffOnly}
      </p>
      <Link href={staff ? "/admin" : "/"} className={buttonClass("primary", "mt-8")}>
        {staff ? t.admin.forbidden.back : t.admin.forbidden.home}
      </Link>
    </main>
  );
}
