// /admin/orders/[id] - everything about one order, its timeline, and the actions the viewer may take.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LocalTime } from "@/components/account/local-time";
import { cardClass, linkClass } from "@/components/account/styles";
import { DeliveryActions } from "@/components/admin/delivery-actions";
import { AdminHeading, badgeClass } from "@/components/admin/ui";
import { deliveryFailureText, deliveryStepText, providerText, timelineText } from "@/lib/admin/order-timeline";
import { can } from "@/lib/admin/permissions";
import { decideRefund, isDelivered } from "@/lib/intents/refund-policy";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { format } from "@/lib/i18n/format";
import { intlLocale } from "@/lib/i18n/config";
import { regionName } from "@/lib/i18n/regions";
import type { Messages } from "@/lib/i18n/messages";
import { getMessages } from "@/lib/i18n/server";
import { formatRub } from "@/lib/money";
import { dueMailKinds, getAdminOrder, getAdminOrderTimeline, type AdminTimelineItem } from "@/lib/services/admin-orders";
import { RefundButton, ResendButton } from "./_components/order-actions";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const [{ t }, { id }] = await Promise.all([getMessages(), params]);
  return { title: format(t.adminOrders.order.heading, { id: id.slice(0, 8) }) };
}

const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"] as const;

export default async function AdminOrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const staff = await requirePermission("orders:read", `/admin/orders/${encodeURIComponent(id)}`);
  const db = getDb();
  const order = await getAdminOrder(db, id);
  if (!order) notFound();
  const [{ locale, t }, timeline] = await Promise.all([getMessages(), getAdminOrderTimeline(db, order)]);
  const m = t.adminOrders;
  const o = m.order;
  const intl = intlLocale(locale);
  const rub = (kopecks: number) => formatRub(kopecks, intl);
  const { intent, delivery } = order;
  const shortId = intent.id.slice(0, 8);
  // The one refund rule (lib/intents/refund-policy.ts), asked as the action will ask it.
  const refundSubject = { status: order.status, deliveryStatus: delivery?.status ?? null };
  const canRefund = can(staff.role, "orders:refund") && decideRefund(refundSubject, { kind: "staff" }).allowed;
  const canResendMail = can(staff.role, "mail:resend");
  const canResendCallback = can(staff.role, "callbacks:resend");
  const mails = timeline.filter((e): e is Extract<AdminTimelineItem, { type: "mail" }> => e.type === "mail");
  const callbacks = timeline.filter((e): e is Extract<AdminTimelineItem, { type: "callback" }> => e.type === "callback");
  const campaign = UTM_KEYS.filter((k) => intent.attribution?.[k]);
  const time = (value: Date | null) => (value ? <LocalTime value={value.toISOString()} /> : "—");

  return (
    <main id="main" className="space-y-6">
      <p>
        <Link href="/admin/orders" className={linkClass}>
          {o.back}
        </Link>
      </p>
      <AdminHeading title={format(o.heading, { id: shortId })} intro={intent.id}>
        <span className={`${badgeClass} text-sm`}>{m.states[order.status]}</span>
      </AdminHeading>

      <div className="grid gap-4 md:grid-cols-2">
        <Card title={o.what}>
          <Row label={m.columns.kind}>{m.kinds[intent.kind]}</Row>
          <Row label={intent.kind === "gift" ? o.game : o.platform}>
            {order.gameTitle}
            {order.gameTitleRu && order.gameTitleRu !== order.gameTitle ? ` / ${order.gameTitleRu}` : ""}{" "}
            <span className="text-slate-400">{format(o.appId, { id: intent.appId })}</span>
          </Row>
          {intent.kind === "gift" ? (
            <Row label={o.edition}>
              {order.edition ?? "—"} <span className="text-slate-400">{format(o.packageId, { id: intent.packageId ?? "—" })}</span>
            </Row>
          ) : (
            <Row label={o.gearItem}>
              {order.gearTitle} <span className="font-mono text-slate-400">({order.gearItem})</span>
            </Row>
          )}
        </Card>

        <Card title={o.forWhom}>
          {intent.kind === "gift" ? (
            <>
              <Row label={o.inviteUrl}>
                <span className="font-mono break-all">{intent.inviteUrl}</span>
              </Row>
              <Row label={o.recipientSteamId}>
                <span className="font-mono">{intent.recipientSteamId ?? o.notDecoded}</span>
              </Row>
              <Row label={o.region}>{intent.giftRegion ? `${regionName(intent.giftRegion, locale)} (${intent.giftRegion})` : "—"}</Row>
            </>
          ) : (
            <>
              <Row label={o.account}>
                <span className="font-mono">{intent.account}</span>
              </Row>
              <Row label={o.tradeLink}>
                <span className="font-mono break-all">{intent.tradeLink ?? "—"}</span>
              </Row>
            </>
          )}
          <Row label={o.email}>
            <span className="break-all">{intent.email}</span>
          </Row>
          <Row label={o.locale}>{o.locales[intent.locale]}</Row>
        </Card>

        <Card title={o.amounts}>
          <Row label={o.intentAmount}>{rub(intent.intentAmount)}</Row>
          <Row label={o.discount}>{intent.discountAmount ? `−${rub(intent.discountAmount)}` : "—"}</Row>
          <Row label={o.fee}>{rub(intent.feeAmount)}</Row>
          <Row label={o.payment}>
            <strong>{rub(intent.paymentAmount)}</strong>
          </Row>
          <Row label={o.feeMode}>{o.feeModes[intent.feeMode]}</Row>
          <Row label={o.promoCode}>
            {order.promoCode ? (
              <Link href={`/admin/promo-codes?q=${encodeURIComponent(order.promoCode)}`} className={`${linkClass} font-mono`}>
                {order.promoCode}
              </Link>
            ) : (
              o.noPromo
            )}
          </Row>
        </Card>

        <Card title={o.campaign}>
          {campaign.length ? (
            campaign.map((k) => (
              <Row key={k} label={k}>
                <span className="break-all">{intent.attribution?.[k]}</span>
              </Row>
            ))
          ) : (
            <p className="text-sm text-slate-300">{o.noCampaign}</p>
          )}
        </Card>

        <Card title={o.createdBy}>
          <Row label={o.token}>
            {/* The store's own session tokens all bear one English system name; say what they are instead. */}
            {order.token.purpose === "storefront" ? o.storefrontSession : order.token.name}{" "}
            <span className="font-mono text-slate-400">({order.token.prefix}…)</span>
          </Row>
          <Row label={m.columns.kind}>{o.tokenPurpose[order.token.purpose]}</Row>
          <Row label={o.owner}>
            <span className="break-all">{order.ownerEmail}</span>
          </Row>
          <Row label={o.callbackUrl}>
            <span className="font-mono break-all">{intent.callbackUrl ?? "—"}</span>
          </Row>
        </Card>

        <Card title={o.paymentSection}>
          <Row label={o.provider}>{providerText(intent.paymentProvider, t)}</Row>
          <Row label={o.providerPaymentId}>
            <span className="font-mono break-all">{intent.providerPaymentId ?? "—"}</span>
          </Row>
          <Row label={o.created}>{time(intent.createdAt)}</Row>
          <Row label={o.expires}>{time(intent.expiresAt)}</Row>
          <Row label={o.paidAt}>{time(intent.paidAt)}</Row>
          {intent.fulfilledAt ? <Row label={o.fulfilledAt}>{time(intent.fulfilledAt)}</Row> : null}
          {intent.canceledAt ? <Row label={o.canceledAt}>{time(intent.canceledAt)}</Row> : null}
          {intent.expiredAt ? <Row label={o.expiredAt}>{time(intent.expiredAt)}</Row> : null}
          {intent.refundedAt ? (
            <>
              <Row label={o.refundedAt}>{time(intent.refundedAt)}</Row>
              <Row label={o.refundReason}>
                {intent.refundReason ? (o.refundReasons[intent.refundReason as keyof typeof o.refundReasons] ?? intent.refundReason) : "—"}
              </Row>
              <Row label={o.refundNote}>{intent.refundNote ?? "—"}</Row>
              <Row label={o.providerRefundId}>
                <span className="font-mono break-all">{intent.providerRefundId ?? "—"}</span>
              </Row>
            </>
          ) : null}
        </Card>
      </div>

      <section aria-labelledby="delivery" className={cardClass}>
        <h2 id="delivery" className="text-lg font-semibold text-white">
          {o.delivery}
        </h2>
        {delivery ? (
          <div className="mt-3 grid gap-x-6 gap-y-2 text-sm lg:grid-cols-2">
            <Row label={o.deliveryStatus}>{m.deliveryStatuses[delivery.status]}</Row>
            <Row label={o.deliveryStep}>{deliveryStepText(delivery.step, t)}</Row>
            <Row label={o.deliveryProvider}>{providerText(delivery.provider, t)}</Row>
            <Row label={o.deliveryAttempts}>{delivery.attemptCount}</Row>
            <Row label={o.assignedTo}>{order.assigneeEmail ?? o.nobody}</Row>
            {delivery.failureReason ? <Row label={o.deliveryFailure}>{deliveryFailureText(delivery.failureReason, t)}</Row> : null}
          </div>
        ) : (
          <p className="mt-2 text-sm text-slate-300">{o.noDelivery}</p>
        )}
        {delivery ? (
          <div className="mt-4">
            <DeliveryActions
              deliveryId={delivery.id}
              status={delivery.status}
              step={delivery.step}
              provider={delivery.provider}
              kind={intent.kind}
              assignedTo={delivery.assignedTo}
              assigneeEmail={order.assigneeEmail}
              viewerId={staff.user.id}
              canFulfil={can(staff.role, "orders:fulfil")}
            />
          </div>
        ) : null}
      </section>

      <section aria-labelledby="actions" className={cardClass}>
        <h2 id="actions" className="text-lg font-semibold text-white">
          {o.actions}
        </h2>
        {!canRefund && !canResendMail && !canResendCallback ? <p className="mt-2 text-sm text-slate-300">{o.noActions}</p> : null}
        {canRefund ? (
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <RefundButton
              intentId={intent.id}
              shortId={shortId}
              amount={rub(intent.paymentAmount)}
              delivered={isDelivered(refundSubject)}
            />
          </div>
        ) : null}

        <h3 className="mt-5 font-semibold text-slate-100">{o.mails}</h3>
        {dueMailKinds(intent).length === 0 && mails.length === 0 ? (
          <p className="mt-1 text-sm text-slate-300">{o.noMails}</p>
        ) : (
          <ul className="mt-2 space-y-2 text-sm">
            {dueMailKinds(intent).map((kind) => {
              const mail = mails.find((x) => x.kind === kind);
              return (
                <li key={kind} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span className="font-medium">{m.mailKinds[kind]}</span>
                  <span className="text-slate-300">
                    {mail
                      ? `${m.mailStatuses[mail.status as keyof typeof m.mailStatuses]} · ${format(o.attempts, { count: mail.attemptCount })}`
                      : o.notSent}
                  </span>
                  {canResendMail ? (
                    <ResendButton
                      intentId={intent.id}
                      mailKind={kind}
                      label={format(m.resend.mailLabel, { kind: m.mailKinds[kind] })}
                      text={mail ? m.resend.mail : m.resend.mailMissing}
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}

        <h3 className="mt-5 font-semibold text-slate-100">{o.callbacks}</h3>
        {callbacks.length === 0 ? (
          <p className="mt-1 text-sm text-slate-300">{o.noCallbacks}</p>
        ) : (
          <ul className="mt-2 space-y-2 text-sm">
            {callbacks.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-mono">{c.eventType}</span>
                <span className="break-all text-slate-300">{c.url}</span>
                <span className="text-slate-300">
                  {m.callbackStatuses[c.status as keyof typeof m.callbackStatuses]} · {format(o.attempts, { count: c.attemptCount })}
                  {c.resendOf ? ` · ${m.timeline.callbackResent}` : ""}
                </span>
                {canResendCallback ? (
                  <ResendButton
                    intentId={intent.id}
                    callbackId={c.id}
                    label={format(m.resend.callbackLabel, { event: c.eventType })}
                    text={m.resend.callback}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="timeline" className={cardClass}>
        <h2 id="timeline" className="text-lg font-semibold text-white">
          {o.timeline}
        </h2>
        {timeline.length === 0 ? (
          <p className="mt-2 text-sm text-slate-300">{o.emptyTimeline}</p>
        ) : (
          <ol className="mt-3 space-y-3 border-l border-slate-700 pl-4">
            {timeline.map((item, i) => (
              <li key={i} className="text-sm">
                <p className="text-xs text-slate-400">
                  <LocalTime value={item.at.toISOString()} />
                </p>
                <TimelineText item={item} t={t} rub={rub} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </main>
  );
}

function TimelineText({ item, t, rub }: { item: AdminTimelineItem; t: Messages; rub: (k: number) => string }) {
  const { text, extra } = timelineText(item, t, rub);
  return (
    <>
      <p className="break-words text-slate-100">{text}</p>
      {extra.length ? <p className="text-xs break-words text-slate-400">{extra.join(" · ")}</p> : null}
    </>
  );
}

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className={cardClass} aria-label={title}>
      <h2 className="text-lg font-semibold text-white">{title}</h2>
      <div className="mt-3 space-y-2 text-sm">{children}</div>
    </section>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <dl className="grid gap-1 sm:grid-cols-[12rem_1fr]">
      <dt className="text-slate-400">{label}</dt>
      <dd className="min-w-0 text-slate-100">{children}</dd>
    </dl>
  );
}
