"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState, type FormEvent } from "react";
import { CheckoutFormEnd, EmailField, PromoCodeField } from "@/components/checkout/checkout-fields";
import { IntentSummary } from "@/components/checkout/intent-summary";
import { QuotePanel, usePromoQuote } from "@/components/checkout/promo-quote";
import { useCheckoutForm } from "@/components/checkout/use-checkout-form";
import { checkoutKeys, restoreFields, restoreOrder, useSessionState } from "@/components/checkout/use-session-state";
import { useStorePricing } from "@/components/store-pricing";
import { ChoiceGroup, TextField, type Choice } from "@/components/forms/fields";
import { useI18n } from "@/components/i18n/i18n-provider";
import type { CheckoutField } from "@/lib/i18n/checkout-errors";
import { intlLocale, type Locale } from "@/lib/i18n/config";
import { format, plural } from "@/lib/i18n/format";
import { formatRub, quote, storeFeeMode } from "@/lib/money";
import { gearItemsQueryOptions, gearQuoteQueryOptions, useCreateGearIntent } from "@/lib/queries/gear";
import type { GearIntentInput, GearIntentResponse, GearItem } from "@/lib/schemas/gear";
import { accountIdFromSteamId64, parseTradeLink } from "@/lib/steam";

export interface GearPlatform {
  /** The game's appId, as the API names platforms. */
  platform: string;
  title: string;
}

export interface GearPurchaseProps {
  platforms: GearPlatform[];
  initialPlatform: string;
  /** Items per platform as the server read them for this page, so the list shows without a loading flash. */
  initialItems: Record<string, GearItem[]>;
  /** When the server read them (ms), so the client knows how fresh they are. */
  initialItemsAt: number;
  defaultEmail?: string;
}

const loadGearSchema = () => import("@/lib/schemas/gear").then((m) => m.gearIntentRequestSchema);

const FIELD_ORDER: CheckoutField[] = ["platform", "item", "account", "tradeLink", "email", "code"];

interface Values {
  platform: string;
  item: string;
  account: string;
  tradeLink: string;
  email: string;
  code: string;
}

function requestBody(v: Values, locale: Locale): GearIntentInput {
  return {
    account: v.account,
    platform: v.platform,
    item: v.item,
    email: v.email,
    // Items are delivered by trade offer, so the store's own form always sends the link; the
    // schema refuses an empty one, which makes it required here without a second rule.
    additionalFields: { tradeLink: v.tradeLink },
    ...(v.code.trim() ? { code: v.code } : {}),
    // The receipt and later mail come in the language the shopper is using.
    locale,
  };
}

/** Whether the trade link is the account's own, once both are well-formed; null until then. */
function linkMatchesAccount(account: string, tradeLink: string): boolean | null {
  const accountId = accountIdFromSteamId64(account.trim());
  const link = parseTradeLink(tradeLink.trim());
  return accountId === null || link === null ? null : link.partner === accountId;
}

/**
 * Buying an in-game item for one's own account: game, item (the price paid, fee and all, and live
 * availability), the SteamID64 and trade link it goes to, e-mail and promo code, applied in place
 * (POST /api/v1/gear/quote). Validates with the API's schema, then reserves the item through POST /api/v1/gear.
 */
export function GearPurchase({ platforms, initialPlatform, initialItems, initialItemsAt, defaultEmail = "" }: GearPurchaseProps) {
  const { locale, t } = useI18n();
  const gt = t.gear;
  const money = (kopecks: number) => formatRub(kopecks, intlLocale(locale));
  const pricing = useStorePricing();
  const feeMode = storeFeeMode(pricing, "gear");
  const priced = (kopecks: number) => quote(kopecks, feeMode, pricing.feeRateBps);

  // Kept for the tab, so Back from the payment page finds the form and the order again.
  const [formValues, setValues] = useSessionState<Values>(
    checkoutKeys.gear.form,
    { platform: initialPlatform, item: "", account: "", tradeLink: "", email: defaultEmail, code: "" },
    restoreFields,
  );
  const [filter, setFilter] = useState("");
  const filterId = useId();
  const [result, setResult] = useSessionState<{ response: GearIntentResponse; values: Values; itemTitle: string } | null>(
    checkoutKeys.gear.order,
    null,
    restoreOrder,
  );
  const create = useCreateGearIntent();

  const itemsQuery = useQuery({
    ...gearItemsQueryOptions(formValues.platform),
    initialData: initialItems[formValues.platform]
      ? { items: initialItems[formValues.platform] ?? [], total: initialItems[formValues.platform]?.length ?? 0 }
      : undefined,
    initialDataUpdatedAt: initialItemsAt,
  });
  const items = useMemo(() => itemsQuery.data?.items ?? [], [itemsQuery.data]);

  // An item that sold out meanwhile (the list was refreshed after a 409) is no longer chosen.
  const values = useMemo(() => {
    const chosen = items.find((i) => i.item === formValues.item);
    return chosen && chosen.available === 0 ? { ...formValues, item: "" } : formValues;
  }, [items, formValues]);

  const form = useCheckoutForm({
    loadSchema: loadGearSchema,
    body: requestBody(values, locale),
    fieldOrder: FIELD_ORDER,
    mutation: create,
  });
  const { register } = form;
  const chosen = items.find((i) => i.item === values.item);
  const promo = usePromoQuote({
    body: chosen ? { platform: values.platform, item: values.item } : null,
    options: gearQuoteQueryOptions,
    context: { itemTitle: chosen?.title },
  });
  const matches = linkMatchesAccount(values.account, values.tradeLink);
  // The store's answer about a field stands until that field is changed (a sold-out item is
  // un-chosen by the refresh, which must not turn "sold out" into "choose an item").
  const errorFor = (field: CheckoutField) =>
    form.errorFor(field) ?? (field === "tradeLink" && matches === false ? t.checkout.errors.fields.tradeLink.mismatch : undefined);

  const update =
    <K extends keyof Values>(key: K, field: CheckoutField) =>
    (value: Values[K]) => {
      setValues((v) => ({ ...v, [key]: value, ...(key === "platform" ? { item: "" } : {}) }));
      if (key === "platform") setFilter("");
      form.clearProblem((f) => f === field || (key === "platform" && f !== undefined));
    };

  if (result) {
    const { response, values: sent, itemTitle } = result;
    return (
      <IntentSummary
        kind="gear"
        description={format(t.checkout.summary.gearFor, { title: itemTitle, account: sent.account })}
        intent={response}
        feeMode={feeMode}
        promoCode={sent.code.trim().toUpperCase() || null}
        onAnother={() => {
          setResult(null);
          form.reset();
          setValues((v) => ({ ...v, item: "", code: "" }));
          promo.clear();
          create.reset();
        }}
      />
    );
  }

  function submit(event: FormEvent) {
    const sent = values;
    const itemTitle = items.find((i) => i.item === sent.item)?.title ?? sent.item;
    form.submit(event, {
      context: { itemTitle, code: sent.code.trim().toUpperCase() },
      onSuccess: (response) => setResult({ response, values: sent, itemTitle }),
    });
  }

  const platformChoices: Choice[] = platforms.map((p) => ({ value: p.platform, label: p.title }));
  const needle = filter.trim().toLocaleLowerCase(locale);
  // The chosen item stays in view whatever the filter says, so the choice is never hidden.
  const shown = needle ? items.filter((i) => i.item === values.item || i.title.toLocaleLowerCase(locale).includes(needle)) : items;
  const itemChoices: Choice[] = shown.map((i) => ({
    value: i.item,
    label: i.title,
    disabled: i.available === 0,
    description:
      i.available === 0 ? gt.item.outOfStock : i.available >= 100 ? gt.item.inStock : plural(locale, i.available, gt.item.available),
    // What the gamer pays, fee and all: the summary will not show a bigger number.
    aside: <span className="font-semibold tabular-nums">{money(priced(i.price.paymentAmount).paymentAmount)}</span>,
  }));

  return (
    <form
      noValidate
      onSubmit={submit}
      onFocus={form.prepare}
      className="space-y-6 rounded-lg border border-slate-700 bg-slate-900/60 p-4 sm:p-6"
    >
      <ChoiceGroup
        name="platform"
        legend={gt.platform.legend}
        value={values.platform}
        onChange={update("platform", "platform")}
        choices={platformChoices}
        error={errorFor("platform")}
        inline
        groupRef={register("platform")}
      />

      <div>
        {itemsQuery.isError && items.length === 0 ? (
          <div role="alert" className="rounded-md border border-red-400/70 bg-red-950/50 px-4 py-3">
            <p>{gt.item.loadFailed}</p>
            <button type="button" onClick={() => void itemsQuery.refetch()} className="mt-2 text-sky-300 underline underline-offset-4">
              {t.common.retry}
            </button>
          </div>
        ) : itemsQuery.isPending ? (
          <p role="status" className="text-slate-300">
            {t.common.loading}
          </p>
        ) : items.length === 0 ? (
          <p className="text-slate-300">{gt.item.empty}</p>
        ) : (
          <ChoiceGroup
            name="item"
            legend={gt.item.legend}
            value={values.item}
            onChange={update("item", "item")}
            choices={itemChoices}
            long={items.length > 6}
            hint={items.length > 6 ? plural(locale, items.length, gt.item.count) : undefined}
            before={
              items.length > 6 && (
                <div className="mt-2">
                  <label htmlFor={filterId} className="block text-sm text-slate-300">
                    {gt.item.filter}
                  </label>
                  <input
                    id={filterId}
                    type="search"
                    autoComplete="off"
                    value={filter}
                    onChange={(event) => setFilter(event.target.value)}
                    className="mt-1 block w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-1.5 text-slate-100 hover:border-slate-500 sm:max-w-xs"
                  />
                </div>
              )
            }
            empty={<p className="mt-2 text-slate-300">{gt.item.noMatch}</p>}
            error={errorFor("item")}
            groupRef={register("item")}
          />
        )}
        <p role="status" className="mt-1 text-sm text-slate-400">
          {itemsQuery.isFetching && !itemsQuery.isPending ? gt.item.updating : ""}
        </p>
      </div>

      <fieldset className="space-y-5">
        <legend className="mb-3 text-lg font-semibold">{gt.account.legend}</legend>
        <TextField
          name="account"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          label={gt.account.label}
          hint={gt.account.hint}
          placeholder="7656119…"
          maxLength={17}
          value={values.account}
          onChange={update("account", "account")}
          error={errorFor("account")}
          inputRef={register("account")}
        />
        <div>
          <TextField
            name="tradeLink"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            label={gt.tradeLink.label}
            hint={gt.tradeLink.hint}
            placeholder="https://steamcommunity.com/tradeoffer/new/?partner=…"
            value={values.tradeLink}
            onChange={update("tradeLink", "tradeLink")}
            error={errorFor("tradeLink")}
            inputRef={register("tradeLink")}
          />
          <p role="status" className="mt-1.5 text-sm text-emerald-300">
            {matches === true && !errorFor("tradeLink") ? `✓ ${gt.tradeLink.matches}` : ""}
          </p>
        </div>
      </fieldset>

      <EmailField form={form} value={values.email} onChange={update("email", "email")} error={errorFor} />
      <PromoCodeField form={form} value={values.code} onChange={update("code", "code")} error={errorFor} promo={promo} />
      <QuotePanel local={chosen ? priced(chosen.price.paymentAmount) : null} feeMode={feeMode} promo={promo} />

      <CheckoutFormEnd form={form} pending={create.isPending} label={gt.submit} pendingLabel={gt.submitting} />
    </form>
  );
}
