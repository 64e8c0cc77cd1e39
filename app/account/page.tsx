import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { IntentList, type IntentRow } from "@/components/account/intent-list";
import { PasswordChangeForm } from "@/components/account/password-change-form";
import { ResendConfirmation } from "@/components/account/resend-confirmation";
import { SignOutButton } from "@/components/account/sign-out-button";
import { cardClass, linkClass, secondaryButtonClass } from "@/components/account/styles";
import { TokenCreateForm } from "@/components/account/token-create-form";
import { TokenList, type TokenRow } from "@/components/account/token-list";
import { WebhookEndpoints, type EndpointRow } from "@/components/account/webhook-endpoints";
import { WebhookSecret } from "@/components/account/webhook-secret";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { regionName } from "@/lib/i18n/regions";
import { getMessages } from "@/lib/i18n/server";
import { effectiveStatus } from "@/lib/intents/states";
import { orderLinkPath } from "@/lib/orders/link";
import { listGuestIntentsForAccount, listUserIntents, type UserIntent } from "@/lib/services/account";
import { isPartner } from "@/lib/services/partners";
import { listApiTokens } from "@/lib/services/tokens";
import { isEmailConfirmed } from "@/lib/services/users";
import { listEndpointDeliveries, listWebhookEndpoints } from "@/lib/services/webhook-endpoints";
import { getOrCreateWebhookSecret } from "@/lib/services/webhook-secrets";
import {
  changePasswordAction,
  createTokenAction,
  createWebhookEndpointAction,
  deleteWebhookEndpointAction,
  resendConfirmationAction,
  resendWebhookDeliveryAction,
  revokeTokenAction,
  sendTestWebhookAction,
  setWebhookEndpointEnabledAction,
} from "./actions";

const webhookActions = {
  create: createWebhookEndpointAction,
  setEnabled: setWebhookEndpointEnabledAction,
  remove: deleteWebhookEndpointAction,
  sendTest: sendTestWebhookAction,
  resend: resendWebhookDeliveryAction,
};

const INTENTS_PER_PAGE = 20;
const CAMPAIGN_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"] as const;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.account.page.title, robots: { index: false } };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function tokenRow(token: Awaited<ReturnType<typeof listApiTokens>>[number], now: Date): TokenRow {
  const status = token.revokedAt ? "revoked" : token.expiresAt && token.expiresAt <= now ? "expired" : "active";
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scopes: token.scopes,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: iso(token.lastUsedAt),
    expiresAt: iso(token.expiresAt),
    revokedAt: iso(token.revokedAt),
    status,
  };
}

function intentRow(intent: UserIntent, locale: Locale, now: Date): IntentRow {
  const status = effectiveStatus(intent.status, intent.expiresAt, now);
  return {
    id: intent.id,
    kind: intent.kind,
    status,
    payable: status === "requires_payment",
    gameTitle: (locale === "ru" ? intent.gameTitleRu : null) ?? intent.gameTitle,
    itemTitle: intent.itemTitle,
    intentAmount: intent.intentAmount,
    discountAmount: intent.discountAmount,
    feeAmount: intent.feeAmount,
    paymentAmount: intent.paymentAmount,
    recipient: intent.kind === "gift" ? (intent.recipientSteamId ?? intent.inviteUrl) : intent.account,
    region: intent.giftRegion ? regionName(intent.giftRegion, locale) : null,
    campaign: CAMPAIGN_KEYS.flatMap((key) => {
      const value = intent.attribution?.[key];
      return value ? [{ key, value }] : [];
    }),
    tokenName: intent.tokenName,
    tokenPurpose: intent.tokenPurpose,
    hasCallbackUrl: intent.callbackUrl !== null,
    createdAt: intent.createdAt.toISOString(),
    expiresAt: intent.expiresAt.toISOString(),
    paidAt: iso(intent.paidAt),
    fulfilledAt: iso(intent.fulfilledAt),
    canceledAt: iso(intent.canceledAt),
    expiredAt: iso(intent.expiredAt),
    callbacks: intent.callbacks.map((c) => ({
      id: c.id,
      eventType: c.eventType,
      status: c.status,
      attemptCount: c.attemptCount,
      nextAttemptAt: c.nextAttemptAt.toISOString(),
      lastResponseStatus: c.lastResponseStatus,
      lastError: c.lastError,
    })),
  };
}

export default async function AccountPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?callbackUrl=%2Faccount");
  const params = await searchParams;
  const before = typeof params.before === "string" ? params.before : null;
  const db = getDb();
  const [{ locale, t }, tokens, secret, intents, endpoints, endpointLog, confirmed, guestIntents, partner] = await Promise.all([
    getMessages(),
    listApiTokens(db, user.id),
    getOrCreateWebhookSecret(db, user.id),
    listUserIntents(db, user.id, { limit: INTENTS_PER_PAGE, before }),
    listWebhookEndpoints(db, user.id),
    listEndpointDeliveries(db, user.id),
    isEmailConfirmed(db, user.id),
    // Empty until the address is confirmed: the query itself requires it.
    listGuestIntentsForAccount(db, user.id, { limit: INTENTS_PER_PAGE }),
    isPartner(db, user.id),
  ]);
  const endpointRows: EndpointRow[] = endpoints.map((e) => ({
    id: e.id,
    url: e.url,
    eventTypes: e.eventTypes,
    secret: e.secret,
    enabled: e.enabled,
    deliveries: (endpointLog.get(e.id) ?? []).map((d) => ({
      id: d.id,
      eventType: d.eventType,
      status: d.status,
      attemptCount: d.attemptCount,
      createdAt: d.createdAt.toISOString(),
      nextAttemptAt: d.nextAttemptAt.toISOString(),
      resent: d.resent,
      lastResponseStatus: d.lastResponseStatus,
      lastError: d.lastError,
    })),
  }));
  const now = new Date();
  const m = t.account;
  const sections = [
    // What a shopper comes for first; the partner's tools follow.
    { id: "orders", title: m.intents.title },
    ...(confirmed ? [{ id: "guest-orders", title: m.guestOrders.title }] : []),
    { id: "email", title: m.email.title },
    { id: "tokens", title: m.tokens.title },
    { id: "callbacks", title: m.secret.title },
    { id: "webhooks", title: m.webhooks.title },
    { id: "password", title: m.password.title },
  ];

  return (
    <main id="main" className="mx-auto w-full max-w-5xl px-4 py-8 sm:py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight">{m.page.title}</h1>
          <p className="mt-1 break-words text-slate-300">{format(m.page.signedInAs, { email: user.email })}</p>
        </div>
        <SignOutButton labels={t.account.nav} className={secondaryButtonClass} />
      </div>

      <nav aria-label={m.page.sectionsLabel} className="mt-6">
        <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className={linkClass}>
                {s.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <section id="orders" aria-labelledby="orders-title" className={`${cardClass} mt-6 scroll-mt-4`}>
        <h2 id="orders-title" className="text-xl font-semibold">
          {m.intents.title}
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-300">{m.intents.lead}</p>
        <IntentList
          intents={intents.intents.map((intent) => intentRow(intent, locale, now))}
          olderHref={intents.nextBefore ? `/account?before=${intents.nextBefore}#orders` : null}
          newestHref={before ? "/account#orders" : null}
        />
      </section>

      {confirmed ? (
        <section id="guest-orders" aria-labelledby="guest-orders-title" className={`${cardClass} mt-6 scroll-mt-4`}>
          <h2 id="guest-orders-title" className="text-xl font-semibold">
            {m.guestOrders.title}
          </h2>
          <p className="mt-1 mb-4 text-sm break-words text-slate-300">{format(m.guestOrders.lead, { email: user.email })}</p>
          <IntentList
            intents={guestIntents.intents.map((intent) => ({
              ...intentRow(intent, locale, now),
              // Read-only: what this page lists for reading, not a guest's unpaid order to pay from here.
              payable: false,
              orderHref: orderLinkPath(intent.id),
            }))}
            olderHref={null}
            newestHref={null}
            emptyText={m.guestOrders.empty}
          />
        </section>
      ) : null}

      <section id="email" aria-labelledby="email-title" className={`${cardClass} mt-6 scroll-mt-4`}>
        <h2 id="email-title" className="text-xl font-semibold">
          {m.email.title}
        </h2>
        <p className={`mt-1 break-words ${confirmed ? "text-emerald-200" : "text-amber-200"}`}>
          {format(confirmed ? m.email.confirmed : m.email.unconfirmed, { email: user.email })}
        </p>
        {confirmed ? null : (
          <>
            <p className="mt-1 max-w-3xl text-sm text-slate-300">{m.email.why}</p>
            <ResendConfirmation email={user.email} action={resendConfirmationAction} />
          </>
        )}
      </section>

      <section id="tokens" aria-labelledby="tokens-title" className={`${cardClass} mt-6 scroll-mt-4`}>
        <h2 id="tokens-title" className="text-xl font-semibold">
          {m.tokens.title}
        </h2>
        <p className="mt-1 text-sm text-slate-300">
          {m.tokens.lead}{" "}
          <Link href="/docs/api" className={linkClass}>
            {m.tokens.docsLink}
          </Link>
        </p>
        <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <TokenCreateForm action={createTokenAction} partner={partner} />
          <TokenList tokens={tokens.map((token) => tokenRow(token, now))} revokeAction={revokeTokenAction} />
        </div>
      </section>

      <section id="callbacks" aria-labelledby="callbacks-title" className={`${cardClass} mt-6 scroll-mt-4`}>
        <h2 id="callbacks-title" className="text-xl font-semibold">
          {m.secret.title}
        </h2>
        <p className="mt-1 max-w-3xl text-sm leading-relaxed text-slate-300">{m.secret.lead}</p>
        <div className="mt-4">
          <WebhookSecret secret={secret} />
        </div>
      </section>

      <section id="webhooks" aria-labelledby="webhooks-title" className={`${cardClass} mt-6 scroll-mt-4`}>
        <h2 id="webhooks-title" className="text-xl font-semibold">
          {m.webhooks.title}
        </h2>
        <p className="mt-1 mb-4 max-w-3xl text-sm leading-relaxed text-slate-300">{m.webhooks.lead}</p>
        <WebhookEndpoints endpoints={endpointRows} actions={webhookActions} />
      </section>

      <section id="password" aria-labelledby="password-title" className={`${cardClass} mt-6 scroll-mt-4`}>
        <h2 id="password-title" className="text-xl font-semibold">
          {m.password.title}
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-300">{m.password.lead}</p>
        <PasswordChangeForm email={user.email} changed={params.notice === "passwordChanged"} action={changePasswordAction} />
      </section>
    </main>
  );
}
