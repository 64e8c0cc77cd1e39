import type { Metadata } from "next";
import { AdminNav } from "@/components/admin/admin-nav";
import { I18nProvider } from "@/components/i18n/i18n-provider";
import { ADMIN_SECTIONS, can } from "@/lib/admin/permissions";
import { getStaff } from "@/lib/admin/session";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: { default: t.admin.title, template: `%s · ${t.admin.title}` }, robots: { index: false, follow: false } };
}

// Each page checks its own permission (requirePermission) before it reads anything; the layout
// only frames it, with the sections this viewer may open. A viewer who is not staff sees no frame.
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const [{ locale, t }, staff] = await Promise.all([getMessages(), getStaff()]);
  const items = staff
    ? ADMIN_SECTIONS.filter((s) => can(staff.role, s.permission)).map((s) => ({ href: s.path, label: t.admin.sections[s.key] }))
    : [];
  return (
    <I18nProvider locale={locale} messages={t}>
      <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6 px-4 py-6 lg:flex-row lg:gap-8">
        {staff ? (
          <aside className="lg:w-52 lg:shrink-0">
            <p className="mb-3 text-xs text-slate-400">
              {format(t.admin.signedInAs, { email: staff.user.email, role: t.admin.roles[staff.role] })}
            </p>
            <AdminNav items={items} label={t.admin.navLabel} />
          </aside>
        ) : null}
        <div className="min-w-0 flex-1">{children}</div>
      </div>
    </I18nProvider>
  );
}
