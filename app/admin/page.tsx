// /admin - the sections this staff member may open, with what each role may do.
import type { Metadata } from "next";
import Link from "next/link";
import { AdminHeading } from "@/components/admin/ui";
import { ADMIN_SECTIONS, can } from "@/lib/admin/permissions";
import { requirePermission } from "@/lib/admin/session";
import { getMessages } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.admin.title };
}

export default async function AdminHome() {
  const staff = await requirePermission(null, "/admin");
  const { t } = await getMessages();
  const sections = ADMIN_SECTIONS.filter((s) => can(staff.role, s.permission));
  return (
    <main id="main" className="space-y-6">
      <AdminHeading title={t.admin.title} intro={`${t.admin.roles[staff.role]}: ${t.admin.roleDescriptions[staff.role]}`} />
      <section aria-labelledby="sections">
        <h2 id="sections" className="text-lg font-semibold text-white">
          {t.admin.overview.youCan}
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {sections.map((s) => (
            <li key={s.key}>
              <Link
                href={s.path}
                className="flex min-h-16 items-center rounded-lg border border-slate-700 bg-slate-900/60 px-4 font-semibold text-slate-100 hover:border-sky-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400"
              >
                {t.admin.sections[s.key]}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
