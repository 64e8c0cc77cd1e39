// /admin/staff - who may do what in the back office; give and take roles (admins only).
import type { Metadata } from "next";
import { cardClass, secondaryButtonClass } from "@/components/account/styles";
import { ConfirmButton } from "@/components/admin/confirm-button";
import { StaffGrantForm } from "@/components/admin/staff-grant-form";
import { AdminHeading, TableRegion, badgeClass, tableClass, tdClass, thClass } from "@/components/admin/ui";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { format, STORE_TIME_ZONE } from "@/lib/i18n/format";
import { intlLocale } from "@/lib/i18n/config";
import { getMessages } from "@/lib/i18n/server";
import { listStaff } from "@/lib/services/staff";
import { grantStaffAction, revokeStaffAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.admin.staff.heading };
}

export default async function StaffPage() {
  const staff = await requirePermission("staff:manage", "/admin/staff");
  const [{ locale, t }, members] = await Promise.all([getMessages(), listStaff(getDb())]);
  const m = t.admin.staff;
  const dateTime = new Intl.DateTimeFormat(intlLocale(locale), {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: STORE_TIME_ZONE,
    timeZoneName: "short",
  });
  return (
    <main id="main" className="space-y-6">
      <AdminHeading title={m.heading} intro={m.intro} />
      <section aria-labelledby="grant" className={cardClass}>
        <h2 id="grant" className="mb-4 text-lg font-semibold text-white">
          {m.grant}
        </h2>
        <StaffGrantForm action={grantStaffAction} />
      </section>
      <section aria-labelledby="members">
        <h2 id="members" className="text-lg font-semibold text-white">
          {m.heading}
        </h2>
        {members.length === 0 ? (
          <p className="mt-2 text-slate-300">{m.empty}</p>
        ) : (
          <TableRegion label={m.heading}>
            <table className={tableClass}>
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    {m.email}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.role}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.status}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.grantedAt}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.grantedBy}
                  </th>
                  <th scope="col" className={thClass}>
                    <span className="sr-only">{m.revoke}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.map((member) => (
                  <tr key={member.userId}>
                    <td className={`${tdClass} break-all`}>
                      {member.email}
                      {member.userId === staff.user.id ? <span className="ml-2 text-xs text-slate-400">({m.you})</span> : null}
                    </td>
                    <td className={tdClass}>
                      <span className={badgeClass}>{t.admin.roles[member.role]}</span>
                    </td>
                    <td className={tdClass}>
                      {member.confirmed ? (
                        <span className="text-emerald-300">{m.inEffect}</span>
                      ) : (
                        <>
                          <span className="font-semibold text-amber-200">{m.waiting}</span>
                          <p className="text-xs text-slate-400">{m.waitingHint}</p>
                        </>
                      )}
                    </td>
                    <td className={tdClass}>{dateTime.format(member.grantedAt)}</td>
                    <td className={`${tdClass} break-all`}>{member.grantedBy}</td>
                    <td className={tdClass}>
                      <ConfirmButton
                        label={m.revoke}
                        question={format(m.revokeConfirm, { email: member.email })}
                        confirmLabel={m.revoke}
                        action={revokeStaffAction}
                        input={{ email: member.email }}
                        accessibleName={`${m.revoke}: ${member.email}`}
                        className={`${secondaryButtonClass} whitespace-nowrap`}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </section>
    </main>
  );
}
