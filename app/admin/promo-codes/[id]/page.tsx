// /admin/promo-codes/[id] - edit a promo code, disable or enable it.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { linkClass } from "@/components/account/styles";
import { ActionButton } from "@/components/admin/action-button";
import { STATE_TONE } from "@/components/admin/tone";
import { PromoCodeForm } from "@/components/admin/promo-code-form";
import { AdminHeading } from "@/components/admin/ui";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { promoState } from "@/lib/schemas/admin-catalog";
import { getPromoCode } from "@/lib/services/admin-promo-codes";
import { disablePromoCodeAction, enablePromoCodeAction, updatePromoCodeAction } from "../actions";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminCatalog.promo.heading };
}

export default async function EditPromoCodePage({ params }: { params: Promise<{ id: string }> }) {
  const { id: idParam } = await params;
  await requirePermission("promo:write", `/admin/promo-codes/${encodeURIComponent(idParam)}`);
  const id = /^\d{1,9}$/.test(idParam) ? Number(idParam) : null;
  const promo = id === null ? null : await getPromoCode(getDb(), id);
  if (!promo) notFound();
  const { locale, t } = await getMessages();
  const m = t.adminCatalog.promo;
  const state = promoState(promo, new Date());
  const fixed = promo.kind === "fixed";
  return (
    <main id="main" className="space-y-4">
      <Link href="/admin/promo-codes" className={`${linkClass} text-sm`}>
        {m.back}
      </Link>
      <AdminHeading title={format(m.editTitle, { code: promo.code })}>
        <span className={`${STATE_TONE[state]} self-center`}>{m.states[state]}</span>
        {promo.disabledAt ? (
          <ActionButton
            action={enablePromoCodeAction}
            input={{ id: promo.id }}
            label={m.enable}
            ariaLabel={format(m.enableLabel, { code: promo.code })}
            done={m.enabled}
          />
        ) : (
          <ActionButton
            action={disablePromoCodeAction}
            input={{ id: promo.id }}
            label={m.disable}
            ariaLabel={format(m.disableLabel, { code: promo.code })}
            done={m.disabled}
          />
        )}
      </AdminHeading>
      <PromoCodeForm
        action={updatePromoCodeAction}
        initial={{
          id: promo.id,
          uses: promo.uses,
          code: promo.code,
          kind: promo.kind,
          // Kopecks back to the roubles the form takes, with the decimal comma the Russian hint shows.
          value: fixed ? roublesText(promo.value, locale) : String(promo.value),
          appliesTo: promo.appliesTo,
          appIds: promo.appIds?.join(", ") ?? "",
          validFrom: promo.validFrom?.toISOString() ?? null,
          validUntil: promo.validUntil?.toISOString() ?? null,
          maxUses: promo.maxUses === null ? "" : String(promo.maxUses),
        }}
      />
    </main>
  );
}

/** 15050 kopecks as the form's field takes them: "150,50" in Russian, "150.50" in English; whole roubles without decimals. */
function roublesText(kopecks: number, locale: Locale): string {
  const text = (kopecks / 100).toFixed(kopecks % 100 === 0 ? 0 : 2);
  return locale === "ru" ? text.replace(".", ",") : text;
}
