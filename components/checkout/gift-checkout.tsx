"use client";

import { useId, type FormEvent } from "react";
import { ChoiceGroup, SelectField, TextField, type Choice } from "@/components/forms/fields";
import { useI18n } from "@/components/i18n/i18n-provider";
import { localizeApiError, type CheckoutField } from "@/lib/i18n/checkout-errors";
import { gameAvailability } from "@/lib/catalog/availability";
import { intlLocale, type Locale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { regionName } from "@/lib/i18n/regions";
import { formatRub, quote } from "@/lib/money";
import { giftQuoteQueryOptions, useVerifyGift } from "@/lib/queries/gifts";
import { useStorePricing } from "@/components/store-pricing";
import type { GameDetails } from "@/lib/schemas/catalog";
import { GIFT_PLATFORM } from "@/lib/schemas/gift-params";
import type { GiftQuoteInput, GiftVerifyInput, GiftVerifyResponse } from "@/lib/schemas/gifts";
import { inviteRecipient } from "@/lib/steam";
import { CheckoutFormEnd, EmailField, PromoCodeField } from "./checkout-fields";
import { IntentSummary } from "./intent-summary";
import { QuotePanel, usePromoQuote } from "./promo-quote";
import { useCheckoutForm } from "./use-checkout-form";
import { checkoutKeys, restoreFields, restoreOrder, useSessionState } from "./use-session-state";

export interface GiftCheckoutProps {
  /** The game as GET /api/v1/gifts/games/{appId} (or getGameOrThrow) returns it. */
  game: Pick<GameDetails, "appId" | "title" | "packages" | "giftRegions" | "comingSoon">;
  /** The signed-in shopper's e-mail, prefilled. */
  defaultEmail?: string;
}

/** Fields in the order they appear: the first one with a problem gets the focus. */
const loadGiftSchema = () => import("@/lib/schemas/gifts").then((m) => m.giftVerifyRequestSchema);

const FIELD_ORDER: CheckoutField[] = ["inviteUrl", "region", "packageId", "email", "code"];

interface Values {
  inviteUrl: string;
  region: string;
  packageId: string;
  email: string;
  code: string;
}

/** What the code's quote prices: the game, edition and region, without the recipient yet. */
function quoteBody(appId: number, v: Values, fee: GiftVerifyInput["fee"]): GiftQuoteInput {
  return {
    platform: GIFT_PLATFORM,
    item: String(appId),
    target: { ...(v.region ? { region: v.region } : {}), ...(v.packageId ? { packageId: Number(v.packageId) } : {}) },
    fee,
  };
}

function requestBody(appId: number, v: Values, fee: GiftVerifyInput["fee"], locale: Locale): GiftVerifyInput {
  return {
    platform: GIFT_PLATFORM,
    item: String(appId),
    target: { inviteUrl: v.inviteUrl, region: v.region, ...(v.packageId ? { packageId: Number(v.packageId) } : {}) },
    email: v.email,
    // The store's own pages charge the fee one way (STOREFRONT_FEE_MODE), so every price shown is the one paid.
    fee,
    ...(v.code.trim() ? { code: v.code } : {}),
    // The receipt and later mail come in the language the shopper is using.
    locale,
  };
}

/**
 * Buying a game as a gift: the friend's invite link, their region, the edition, an e-mail for the
 * receipt and a promo code, applied in place (POST /api/v1/gifts/quote) so the price shown is the
 * price paid. Validates with the API's own schema before sending, then creates the intent through
 * POST /api/v1/gifts/verify and shows what to pay.
 */
export function GiftCheckout({ game, defaultEmail = "" }: GiftCheckoutProps) {
  const { locale, t } = useI18n();
  const pricing = useStorePricing();
  const feeMode = pricing.giftFeeMode;
  const g = t.checkout.gift;
  const money = (kopecks: number) => formatRub(kopecks, intlLocale(locale));
  const headingId = useId();

  const onSale = game.packages.filter((p) => p.price !== null);
  const firstPackage = onSale.find((p) => p.isMain) ?? onSale[0];
  const initial = (): Values => ({
    inviteUrl: "",
    // A gift to the wrong region cannot be redeemed: the shopper picks it, unless there is one.
    region: game.giftRegions.length === 1 ? (game.giftRegions[0] ?? "") : "",
    packageId: firstPackage ? String(firstPackage.packageId) : "",
    email: defaultEmail,
    code: "",
  });
  // Kept for the tab, so Back from the payment page finds the form and the order again.
  const [values, setValues] = useSessionState<Values>(checkoutKeys.gift(game.appId).form, initial, restoreFields);
  const [result, setResult] = useSessionState<{ response: GiftVerifyResponse; values: Values } | null>(
    checkoutKeys.gift(game.appId).order,
    null,
    restoreOrder,
  );
  const verify = useVerifyGift();
  const form = useCheckoutForm({
    loadSchema: loadGiftSchema,
    body: requestBody(game.appId, values, feeMode, locale),
    fieldOrder: FIELD_ORDER,
    mutation: verify,
  });
  const { errorFor, register } = form;
  const problemContext = {
    regionName: (code: string) => regionName(code, locale),
    region: values.region,
    giftRegions: game.giftRegions,
  };
  const promo = usePromoQuote({
    body: values.packageId ? quoteBody(game.appId, values, feeMode) : null,
    options: giftQuoteQueryOptions,
    context: problemContext,
  });

  const update =
    <K extends keyof Values>(key: K, field: CheckoutField) =>
    (value: Values[K]) => {
      setValues((v) => ({ ...v, [key]: value }));
      form.clearProblem((f) => f === field);
    };

  const availability = gameAvailability(game);
  if (availability !== null) {
    const why = g.unavailable[availability];
    return (
      <section aria-labelledby={headingId} className="rounded-lg border border-slate-700 bg-slate-900/60 p-4 sm:p-6">
        <h2 id={headingId} className="text-xl font-semibold">
          {g.heading}
        </h2>
        <p className="mt-2 text-slate-300">{why}</p>
      </section>
    );
  }

  if (result) {
    const { response, values: sent } = result;
    const edition = game.packages.find((p) => String(p.packageId) === sent.packageId);
    const title = edition && !edition.isMain ? `${game.title} — ${edition.title}` : game.title;
    return (
      <IntentSummary
        kind="gift"
        description={format(t.checkout.summary.giftTo, { title, region: regionName(sent.region, locale) })}
        intent={response}
        feeMode={feeMode}
        promoCode={sent.code.trim().toUpperCase() || null}
        onAnother={() => {
          setResult(null);
          form.reset();
          setValues((v) => ({ ...initial(), email: v.email }));
          promo.clear();
          verify.reset();
        }}
      />
    );
  }

  function submit(event: FormEvent) {
    const sent = values;
    form.submit(event, {
      context: { ...problemContext, code: sent.code.trim().toUpperCase() },
      onSuccess: (response) => setResult({ response, values: sent }),
    });
  }

  const selected = game.packages.find((p) => String(p.packageId) === values.packageId);
  // The regions the chosen edition cannot go to, as the page was rendered: marked in the list, and
  // the chosen one's reason said at once, in the words the store's 409 would use. The store still
  // judges at submit (a rate may change meanwhile).
  const refusals = new Map((selected?.refusedRegions ?? []).map((r) => [r.region, r.refusal]));
  const chosenRefusal = refusals.get(values.region);
  const regionVerdict = chosenRefusal
    ? localizeApiError({ status: 409, reason: chosenRefusal, message: "" }, t, problemContext).message
    : undefined;
  const regionOptions = game.giftRegions.map((code) => {
    const refusal = refusals.get(code);
    const label = regionName(code, locale);
    return { value: code, label: refusal ? format(g.region.option, { region: label, why: g.region.refused[refusal] }) : label };
  });
  const basePrice = selected?.price?.paymentAmount;
  const pay = (kopecks: number) => money(quote(kopecks, feeMode, pricing.feeRateBps).paymentAmount);

  const editionChoices: Choice[] = game.packages.map((p) => ({
    value: String(p.packageId),
    label: p.title,
    disabled: p.price === null,
    aside: p.price ? (
      <span className="flex flex-col items-end tabular-nums">
        <span className="font-semibold">{pay(p.price.paymentAmount)}</span>
        {p.price.paymentAmountFull && (
          <span className="text-sm whitespace-nowrap text-slate-400">
            <s>
              <span className="sr-only">{g.edition.was} </span>
              {pay(p.price.paymentAmountFull)}
            </s>
            {p.price.discountPercent && <span className="ml-1.5 text-emerald-300">−{p.price.discountPercent}%</span>}
          </span>
        )}
      </span>
    ) : (
      <span className="text-sm">{g.edition.notOnSale}</span>
    ),
  }));

  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-700 bg-slate-900/60 p-4 sm:p-6">
      <h2 id={headingId} className="text-xl font-semibold">
        {g.heading}
      </h2>
      <p className="mt-1 text-slate-300">{g.intro}</p>

      <form noValidate onSubmit={submit} onFocus={form.prepare} className="mt-5 space-y-6">
        <TextField
          name="inviteUrl"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          label={g.inviteUrl.label}
          hint={g.inviteUrl.hint}
          placeholder="https://s.team/p/…"
          value={values.inviteUrl}
          onChange={update("inviteUrl", "inviteUrl")}
          error={errorFor("inviteUrl")}
          inputRef={register("inviteUrl")}
        />
        <InviteRecipient url={values.inviteUrl} />
        <SelectField
          name="region"
          label={g.region.label}
          hint={g.region.hint}
          placeholder={g.region.placeholder}
          value={values.region}
          onChange={update("region", "region")}
          options={regionOptions}
          error={errorFor("region") ?? regionVerdict}
          liveError
          selectRef={register("region")}
        />
        <ChoiceGroup
          name="packageId"
          legend={g.edition.legend}
          value={values.packageId}
          onChange={update("packageId", "packageId")}
          choices={editionChoices}
          error={errorFor("packageId")}
          groupRef={register("packageId")}
        />
        <EmailField form={form} value={values.email} onChange={update("email", "email")} error={errorFor} />
        <PromoCodeField form={form} value={values.code} onChange={update("code", "code")} error={errorFor} promo={promo} />
        <QuotePanel
          local={basePrice === undefined ? null : quote(basePrice, feeMode, pricing.feeRateBps)}
          feeMode={feeMode}
          promo={promo}
        />

        <CheckoutFormEnd form={form} pending={verify.isPending} label={g.submit} pendingLabel={g.submitting} />
      </form>
    </section>
  );
}

/** The friend the invite link names, decoded as the shopper types it, so a wrong link shows before paying. */
function InviteRecipient({ url }: { url: string }) {
  const { t } = useI18n();
  const recipient = inviteRecipient(url.trim());
  return (
    <p aria-live="polite" data-testid="invite-recipient" className="-mt-3 text-sm text-emerald-200">
      {recipient ? format(t.checkout.gift.inviteUrl.recipient, { steamId: recipient.steamId64 }) : null}
    </p>
  );
}
