// /admin/promo-codes/new - create a promo code.
import type { Metadata } from "next";
import Link from "next/link";
import { linkClass } from "@/components/account/styles";
import { PromoCodeForm } from "@/components/admin/promo-code-form";
import { AdminHeading } from "@/components/admin/ui";
import { requirePermission } from "@/lib/admin/session";
import { getMessages } from "@/lib/i18n/server";
import { createPromoCodeAction } from "../actions";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminCatalog.promo.newTitle };
}

export default async function NewPromoCodePage() {
  await requirePermission("promo:write", "/admin/promo-codes/new");
  const { t } = await getMessages();
  const m = t.adminCatalog.promo;
  return (
    <main id="main" className="space-y-4">
      <Link href="/admin/promo-codes" className={`${linkClass} text-sm`}>
        {m.back}
      </Link>
      <AdminHeading title={m.newTitle} />
      <PromoCodeForm action={createPromoCodeAction} />
    </main>
  );
}
