// /admin/campaigns/link - the link builder: a store page plus the campaign's UTM parameters. A GET
// form: it works without script, and the built link is in the URL, so it can be shared as it is.
import type { Metadata } from "next";
import Link from "next/link";
import { CopyButton } from "@/components/admin/copy-button";
import { AdminHeading, type AdminSearchParams } from "@/components/admin/ui";
import { cardClass, fieldErrorClass, hintClass, inputClass, labelClass, linkClass, primaryButtonClass } from "@/components/account/styles";
import { requirePermission } from "@/lib/admin/session";
import { getDb } from "@/lib/db/client";
import { configuredOrigin } from "@/lib/http/public-origin";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { LINK_TARGETS, linkBuilderSchema, type LinkTarget } from "@/lib/schemas/campaigns";
import { buildCampaignLink, type CampaignLinkResult } from "@/lib/services/campaign-links";
import { siteOrigin } from "@/lib/site-origin";

const PATH = "/admin/campaigns/link";
const FIELDS = ["game", "path", "utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"] as const;
type Field = (typeof FIELDS)[number];
const MAX_LENGTH: Record<Field, number> = {
  game: 200,
  path: 2000,
  utm_source: 200,
  utm_medium: 200,
  utm_campaign: 200,
  utm_content: 200,
  utm_term: 200,
};

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminCampaigns.link.title };
}

export default async function CampaignLinkPage({ searchParams }: { searchParams: AdminSearchParams }) {
  const raw = await searchParams;
  await requirePermission("campaigns:read", PATH);
  const { t } = await getMessages();
  const m = t.adminCampaigns.link;
  const origin = await siteOrigin();

  const values = Object.fromEntries(
    ["target", ...FIELDS].map((k) => {
      const v = raw[k];
      return [k, (Array.isArray(v) ? v[0] : v) ?? ""];
    }),
  ) as Record<"target" | Field, string>;
  const submitted = values.target !== "";
  const target: LinkTarget = (LINK_TARGETS as readonly string[]).includes(values.target) ? (values.target as LinkTarget) : "catalog";

  const errors: Partial<Record<Field, string>> = {};
  let result: CampaignLinkResult | null = null;
  if (submitted) {
    const parsed = linkBuilderSchema.safeParse(values);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        if (!FIELDS.includes(field) || errors[field]) continue;
        errors[field] = values[field].trim() === "" ? m.errors.required : format(m.errors.tooLong, { max: MAX_LENGTH[field] });
      }
    } else {
      result = await buildCampaignLink(getDb(), parsed.data, origin, [configuredOrigin()]);
      if (!result.ok) {
        errors[result.field] =
          result.problem === "game_not_found"
            ? m.errors.gameNotFound
            : result.problem === "game_ambiguous"
              ? m.errors.gameChoose
              : format(m.errors.notStore, { origin });
      }
    }
  }
  const choiceHref = (appId: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v) q.set(k, v);
    q.set("target", "game");
    q.set("game", String(appId));
    return `${PATH}?${q.toString()}`;
  };

  const field = (name: Field, label: string, hint?: string, optional = false) => {
    const error = errors[name];
    const described = [hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(" ") || undefined;
    return (
      <div>
        <label htmlFor={name} className={labelClass}>
          {label}
          {optional ? <span className="font-normal text-slate-400"> ({m.optional})</span> : null}
        </label>
        <input
          id={name}
          name={name}
          type="text"
          defaultValue={values[name]}
          maxLength={MAX_LENGTH[name]}
          required={!optional && name.startsWith("utm_")}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          autoComplete="off"
          spellCheck={false}
          className={`${inputClass} mt-1`}
        />
        {hint ? (
          <p id={`${name}-hint`} className={hintClass}>
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={`${name}-error`} className={fieldErrorClass}>
            {error}
          </p>
        ) : null}
        {name === "game" && result && !result.ok && result.problem === "game_ambiguous" ? (
          <ul className="mt-2 space-y-1 text-sm">
            {result.choices.map((g) => (
              <li key={g.appId}>
                <Link href={choiceHref(g.appId)} className={linkClass}>
                  {g.title} ({g.appId})
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  };

  return (
    <main id="main" className="space-y-6">
      <AdminHeading title={m.title} intro={m.intro}>
        <Link href="/admin/campaigns" className={linkClass}>
          {m.back}
        </Link>
      </AdminHeading>

      {result?.ok ? (
        <section aria-labelledby="link-result" className={`${cardClass} border-emerald-700`}>
          <h2 id="link-result" className="text-lg font-semibold text-white">
            {m.result}
          </h2>
          {result.game ? <p className="mt-1 text-sm text-slate-300">{format(m.forGame, { title: result.game.title })}</p> : null}
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <label htmlFor="campaign-link" className="sr-only">
              {m.resultLabel}
            </label>
            <textarea
              id="campaign-link"
              readOnly
              rows={3}
              value={result.url}
              className={`${inputClass} min-w-0 basis-full resize-none font-mono text-sm break-all`}
            />
            <CopyButton text={result.url} labels={{ copy: m.copy, copied: m.copied, copyFailed: m.copyFailed }} />
          </div>
          <p className="mt-2 text-sm">
            <a href={result.url} className={linkClass} target="_blank" rel="noopener">
              {m.open}
            </a>
          </p>
        </section>
      ) : null}

      {Object.keys(errors).length > 0 ? (
        <div role="alert" className="rounded-lg border border-red-500 p-4 text-sm text-red-200">
          <h2 className="font-semibold">{m.errorsHeading}</h2>
          <ul className="mt-1 list-disc pl-5">
            {FIELDS.filter((f) => errors[f]).map((f) => (
              <li key={f}>
                <a href={`#${f}`} className="underline">
                  {f === "game" ? m.game : f === "path" ? m.path : labelOf(f, m)}
                </a>
                : {errors[f]}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <form method="get" action={PATH} className={`${cardClass} space-y-5`}>
        <fieldset>
          <legend className={labelClass}>{m.page}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {LINK_TARGETS.map((value) => (
              <label
                key={value}
                className="flex min-h-10 items-center gap-2 rounded-md border border-slate-700 px-3 text-sm text-slate-100"
              >
                <input type="radio" name="target" value={value} defaultChecked={target === value} className="h-4 w-4 accent-sky-400" />
                {m.targets[value]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          {field("game", m.game, m.gameHint)}
          {field("path", m.path, format(m.pathHint, { origin }))}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {field("utm_source", m.source, m.sourceHint)}
          {field("utm_medium", m.medium, m.mediumHint)}
          {field("utm_campaign", m.campaign, m.campaignHint, true)}
          {field("utm_content", m.content, undefined, true)}
          {field("utm_term", m.term, undefined, true)}
        </div>
        <button type="submit" className={primaryButtonClass}>
          {m.build}
        </button>
      </form>
    </main>
  );
}

type LinkTexts = Awaited<ReturnType<typeof getMessages>>["t"]["adminCampaigns"]["link"];

function labelOf(field: Exclude<Field, "game" | "path">, m: LinkTexts): string {
  return { utm_source: m.source, utm_medium: m.medium, utm_campaign: m.campaign, utm_content: m.content, utm_term: m.term }[field];
}
