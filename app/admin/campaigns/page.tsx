// /admin/campaigns - per source / medium / campaign: visits, orders, payments, conversion and revenue
// over a period, with the period's days and funnel drawn. Everything is in the URL (GET form, links).
import type { Metadata } from "next";
import Link from "next/link";
import { BarChart, Funnel, type BarSeries } from "@/components/admin/campaign-charts";
import { AdminHeading, Pager, tableClass, tableWrapClass, tdClass, thClass, type AdminSearchParams } from "@/components/admin/ui";
import { cardClass, inputClass, labelClass, linkClass, primaryButtonClass, secondaryButtonClass } from "@/components/account/styles";
import { requirePermission } from "@/lib/admin/session";
import { addDays, reportFilterOf } from "@/lib/campaigns/period";
import { storeDay } from "@/lib/campaigns/visits";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { intlLocale, type Locale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { getMessages } from "@/lib/i18n/server";
import { formatRub } from "@/lib/money";
import { campaignReportQuerySchema, type CampaignSort } from "@/lib/schemas/campaigns";
import { campaignReport, conversion, type CampaignFigures, type DayRow } from "@/lib/services/campaign-report";
import { flushCampaignVisits } from "@/lib/services/campaign-visits";

const PER_PAGE = 25;
const PATH = "/admin/campaigns";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getMessages();
  return { title: t.adminCampaigns.title };
}

export default async function CampaignsPage({ searchParams }: { searchParams: AdminSearchParams }) {
  const raw = await searchParams;
  await requirePermission("campaigns:read", PATH);
  const { locale, t } = await getMessages();
  const m = t.adminCampaigns;

  const query = campaignReportQuerySchema.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const today = storeDay(new Date());
  const filter = reportFilterOf(query, today);
  const { from, to } = filter;
  const only = filter.source !== undefined;
  const names: Record<string, string> = only
    ? { source: filter.source ?? "", medium: filter.medium ?? "", campaign: filter.campaign ?? "" }
    : {};

  const db = getDb();
  // What this process counted in the last seconds; other processes write theirs within 5 s.
  await flushCampaignVisits(db);
  const report = await campaignReport(db, filter, { sort: query.sort, limit: PER_PAGE, offset: (query.page - 1) * PER_PAGE });
  const pages = Math.max(1, Math.ceil(report.total / PER_PAGE));

  const fmt = formatters(locale);
  const base: Record<string, string | undefined> = { from, to, ...(query.sort !== "revenue" ? { sort: query.sort } : {}) };
  const href = (params: Record<string, string | undefined>, keep: Record<string, string | undefined> = base) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...keep, ...params })) if (v !== undefined) q.set(k, v);
    return `${PATH}?${q.toString()}`;
  };
  const nameOf = (value: string) => value || m.notSet;
  const exportQuery = new URLSearchParams({ from, to, sort: query.sort, ...names });

  return (
    <main id="main" className="space-y-6">
      <AdminHeading title={m.title} intro={m.intro}>
        <Link href="/admin/campaigns/link" className={secondaryButtonClass}>
          {m.linkBuilder}
        </Link>
        <a href={`/admin/campaigns/export?${exportQuery.toString()}`} className={secondaryButtonClass} download>
          {m.export}
        </a>
      </AdminHeading>

      <form method="get" action={PATH} className={cardClass}>
        <fieldset>
          <legend className="text-sm font-semibold text-white">{m.period.legend}</legend>
          <div className="mt-3 flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="from" className={labelClass}>
                {m.period.from}
              </label>
              <input id="from" name="from" type="date" defaultValue={from} max={today} className={`${inputClass} mt-1`} />
            </div>
            <div>
              <label htmlFor="to" className={labelClass}>
                {m.period.to}
              </label>
              <input id="to" name="to" type="date" defaultValue={to} max={today} className={`${inputClass} mt-1`} />
            </div>
            {only ? (
              <>
                <input type="hidden" name="source" value={names.source} />
                <input type="hidden" name="medium" value={names.medium} />
                <input type="hidden" name="campaign" value={names.campaign} />
              </>
            ) : null}
            {query.sort !== "revenue" ? <input type="hidden" name="sort" value={query.sort} /> : null}
            <button type="submit" className={primaryButtonClass}>
              {m.period.apply}
            </button>
          </div>
          <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {([7, 30, 90] as const).map((days) => (
              <Link key={days} href={href({ from: addDays(today, -(days - 1)), to: today, ...names })} className={linkClass}>
                {m.period[`last${days}`]}
              </Link>
            ))}
          </p>
        </fieldset>
      </form>

      {only ? (
        <p className="text-sm text-slate-200">
          {format(m.onlyCampaign, { name: [names.source, names.medium, names.campaign].map((v) => nameOf(v ?? "")).join(" / ") })}{" "}
          <Link href={href({})} className={linkClass}>
            {m.showAll}
          </Link>
        </p>
      ) : null}

      <section aria-labelledby="totals" className="space-y-3">
        <h2 id="totals" className="text-lg font-semibold text-white">
          {m.totalsHeading}: {format(m.period.showing, { from: fmt.day(from), to: fmt.day(to) })}
        </h2>
        <Totals figures={report.totals} m={m} fmt={fmt} />
        <p className="text-sm text-slate-400">{m.netHint}</p>
      </section>

      <section aria-labelledby="funnel" className={cardClass}>
        <h2 id="funnel" className="mb-3 text-lg font-semibold text-white">
          {m.funnel.heading}
        </h2>
        <Funnel
          label={m.funnel.heading}
          steps={[
            { label: m.figures.visits, value: report.totals.visits },
            { label: m.figures.intents, value: report.totals.intents },
            { label: m.figures.paid, value: report.totals.paid },
          ].map((step) => {
            const share = conversion(step.value, report.totals.visits);
            return {
              ...step,
              formatted: fmt.count(step.value),
              share: share === null ? m.funnel.noVisits : format(m.funnel.ofVisits, { percent: fmt.percent(share) }),
            };
          })}
        />
      </section>

      <section aria-labelledby="by-day" className="space-y-3">
        <h2 id="by-day" className="text-lg font-semibold text-white">
          {m.chart.heading}
        </h2>
        <div className="grid gap-4 md:grid-cols-2">
          {dailySeries(report.days, report.totals, m, fmt).map((series) => (
            <BarChart key={series.id} series={series} />
          ))}
        </div>
        <details className="rounded-lg border border-slate-800 p-3">
          <summary className="cursor-pointer text-sm font-semibold text-slate-200">{m.chart.tableSummary}</summary>
          <div className={tableWrapClass}>
            <table className={tableClass}>
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    {m.chart.day}
                  </th>
                  {(["visits", "intents", "paid", "net"] as const).map((key) => (
                    <th key={key} scope="col" className={`${thClass} text-right`}>
                      {m.figures[key]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {report.days.map((d) => (
                  <tr key={d.day}>
                    <th scope="row" className={`${tdClass} font-normal`}>
                      {fmt.day(d.day)}
                    </th>
                    <td className={`${tdClass} text-right tabular-nums`}>{fmt.count(d.visits)}</td>
                    <td className={`${tdClass} text-right tabular-nums`}>{fmt.count(d.intents)}</td>
                    <td className={`${tdClass} text-right tabular-nums`}>{fmt.count(d.paid)}</td>
                    <td className={`${tdClass} text-right tabular-nums`}>{fmt.money(d.net)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>

      <section aria-labelledby="by-campaign">
        <h2 id="by-campaign" className="text-lg font-semibold text-white">
          {m.table.heading}
        </h2>
        {report.rows.length === 0 ? (
          <p className="mt-3 text-sm text-slate-300">{m.table.empty}</p>
        ) : (
          <div className={tableWrapClass}>
            <table className={`${tableClass} [&_td]:px-2 [&_th]:px-2`}>
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    {m.table.source}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.table.medium}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.table.campaign}
                  </th>
                  {COLUMNS.map((col) => (
                    <th
                      key={col.key}
                      scope="col"
                      className={`${thClass} text-right`}
                      aria-sort={col.sort && col.sort === query.sort ? "descending" : undefined}
                    >
                      {col.sort ? (
                        <Link
                          href={href({ sort: col.sort === "revenue" ? undefined : col.sort, page: undefined, ...names })}
                          className={linkClass}
                        >
                          {m.figures[col.key]}
                          {col.sort === query.sort ? " ↓" : ""}
                        </Link>
                      ) : (
                        m.figures[col.key]
                      )}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {report.rows.map((row) => (
                  <tr key={row.other ? "other" : `${row.source}\u0000${row.medium}\u0000${row.campaign}`}>
                    {row.other ? (
                      // Their names are not kept, so there is no campaign to open.
                      <th scope="row" colSpan={3} className={`${tdClass} text-left font-normal`}>
                        <span className="font-semibold text-white">{m.table.other}</span>{" "}
                        <span className="text-slate-400">({format(m.table.otherHint, { max: fmt.count(env.CAMPAIGNS_PER_DAY) })})</span>
                      </th>
                    ) : (
                      <>
                        <td className={tdClass}>{nameOf(row.source)}</td>
                        <td className={tdClass}>{nameOf(row.medium)}</td>
                        <td className={tdClass}>
                          <Link
                            href={href({ source: row.source, medium: row.medium, campaign: row.campaign })}
                            className={linkClass}
                            aria-label={format(m.table.details, { name: [row.source, row.medium, row.campaign].map(nameOf).join(" / ") })}
                          >
                            {nameOf(row.campaign)}
                          </Link>
                        </td>
                      </>
                    )}
                    {COLUMNS.map((col) => (
                      <td key={col.key} className={`${tdClass} text-right tabular-nums`}>
                        {cell(row, col.key, fmt)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pages > 1 ? (
          <Pager
            path={PATH}
            params={{ ...base, ...(only ? names : {}) }}
            page={Math.min(query.page, pages)}
            pageCount={pages}
            labels={{ previous: m.table.previous, next: m.table.next, pageOf: format(m.table.pageOf, { page: query.page, pages }) }}
          />
        ) : null}
      </section>

      <p className="max-w-3xl text-sm text-slate-400">{format(m.about, { max: fmt.count(env.CAMPAIGNS_PER_DAY) })}</p>
    </main>
  );
}

type FigureKey = "visits" | "intents" | "paid" | "intentConversion" | "paidConversion" | "gross" | "refunds" | "refunded" | "net";

const COLUMNS: { key: FigureKey; sort?: CampaignSort }[] = [
  { key: "visits", sort: "visits" },
  { key: "intents", sort: "intents" },
  { key: "paid", sort: "paid" },
  // Revenue next to the counts: at a laptop's width the columns after it may need a scroll.
  { key: "net", sort: "revenue" },
  { key: "intentConversion" },
  { key: "paidConversion" },
  { key: "gross" },
  { key: "refunds" },
];

type Formatters = ReturnType<typeof formatters>;
type Texts = Awaited<ReturnType<typeof getMessages>>["t"]["adminCampaigns"];

function formatters(locale: Locale) {
  const intl = intlLocale(locale);
  const count = new Intl.NumberFormat(intl);
  const percent = new Intl.NumberFormat(intl, { style: "percent", maximumFractionDigits: 1 });
  const day = new Intl.DateTimeFormat(intl, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  return {
    count: (n: number) => count.format(n),
    percent: (n: number) => percent.format(n),
    money: (kopecks: number) => formatRub(kopecks, intl),
    day: (iso: string) => day.format(new Date(`${iso}T00:00:00Z`)),
  };
}

function cell(figures: CampaignFigures, key: FigureKey, fmt: Formatters): string {
  switch (key) {
    case "intentConversion":
    case "paidConversion": {
      const share = conversion(key === "paidConversion" ? figures.paid : figures.intents, figures.visits);
      return share === null ? "—" : fmt.percent(share);
    }
    case "gross":
    case "refunded":
    case "net":
      return fmt.money(figures[key]);
    default:
      return fmt.count(figures[key]);
  }
}

function Totals({ figures, m, fmt }: { figures: CampaignFigures; m: Texts; fmt: Formatters }) {
  const keys: FigureKey[] = ["visits", "intents", "paid", "intentConversion", "paidConversion", "gross", "refunded", "net"];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {keys.map((key) => (
        <div key={key} className="rounded-lg border border-slate-800 bg-slate-900/60 p-3">
          <dt className="text-xs text-slate-300">
            {key === "refunded" ? `${m.figures.refunds} (${fmt.count(figures.refunds)})` : m.figures[key]}
          </dt>
          <dd className="mt-1 text-lg font-bold text-white tabular-nums">{cell(figures, key, fmt)}</dd>
        </div>
      ))}
    </dl>
  );
}

function dailySeries(days: DayRow[], totals: CampaignFigures, m: Texts, fmt: Formatters): BarSeries[] {
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  const metrics = [
    { id: "chart-visits", key: "visits", color: "text-sky-400", show: fmt.count },
    { id: "chart-intents", key: "intents", color: "text-violet-400", show: fmt.count },
    { id: "chart-paid", key: "paid", color: "text-emerald-400", show: fmt.count },
    { id: "chart-net", key: "net", color: "text-amber-300", show: fmt.money },
  ] as const;
  return metrics.map(({ id, key, color, show }) => {
    const values = days.map((d) => Math.max(0, d[key]));
    const maxIndex = values.reduce((best, v, i) => (v > (values[best] ?? 0) ? i : best), 0);
    const max = values[maxIndex] ?? 0;
    const metric = m.figures[key];
    const range = { metric, from: fmt.day(first), to: fmt.day(last) };
    return {
      id,
      title: metric,
      total: show(totals[key]),
      description:
        max > 0
          ? format(m.chart.desc, { ...range, total: show(totals[key]), max: show(max), day: fmt.day(days[maxIndex]!.day) })
          : format(m.chart.empty, range),
      values,
      labels: days.map((d) => `${fmt.day(d.day)}: ${show(d[key])}`),
      start: fmt.day(first),
      end: fmt.day(last),
      maxLabel: key === "net" ? "" : fmt.count(max),
      colorClass: color,
    };
  });
}
