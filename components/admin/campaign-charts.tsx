// The campaign report's pictures, drawn on the server as SVG and plain HTML: no chart library and no
// script reach the browser (a charting package would add tens of kilobytes for four bar charts and
// three bars). Each chart is an image with a title and a description that states its numbers, and
// the report also gives them as a table.

export interface BarSeries {
  id: string;
  title: string;
  /** Shown under the title: the period's total, formatted. */
  total: string;
  /** What a screen reader hears instead of the bars. */
  description: string;
  values: number[];
  /** One per value: what the bar's tooltip says ("3 May: 12"). */
  labels: string[];
  /** The first and the last day, formatted, under the chart. */
  start: string;
  end: string;
  /** The top of the scale, formatted. */
  maxLabel: string;
  colorClass: string;
}

const BAR = 10;
const HEIGHT = 100;

export function BarChart({ series }: { series: BarSeries }) {
  const { id, values } = series;
  const max = Math.max(0, ...values);
  const width = Math.max(1, values.length) * BAR;
  return (
    <figure className="rounded-lg border border-slate-800 bg-slate-900/60 p-4">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold text-slate-200">{series.title}</span>
        <span className="text-lg font-bold text-white tabular-nums">{series.total}</span>
      </figcaption>
      <div className="mt-2 flex gap-2">
        <span className="w-10 shrink-0 text-right text-xs text-slate-400 tabular-nums" aria-hidden="true">
          {series.maxLabel}
        </span>
        <svg
          viewBox={`0 0 ${width} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          className={`h-28 w-full ${series.colorClass}`}
        >
          <title id={`${id}-title`}>{series.title}</title>
          <desc id={`${id}-desc`}>{series.description}</desc>
          <line
            x1="0"
            y1={HEIGHT - 0.5}
            x2={width}
            y2={HEIGHT - 0.5}
            className="stroke-slate-600"
            strokeWidth="1"
            vectorEffect="non-scaling-stroke"
          />
          {values.map((value, i) => {
            const h = max > 0 ? (value / max) * (HEIGHT - 4) : 0;
            return value > 0 ? (
              <rect key={i} x={i * BAR + 1} y={HEIGHT - h} width={BAR - 2} height={h} fill="currentColor">
                <title>{series.labels[i]}</title>
              </rect>
            ) : null;
          })}
        </svg>
      </div>
      <div className="mt-1 flex justify-between pl-12 text-xs text-slate-400" aria-hidden="true">
        <span>{series.start}</span>
        <span>{series.end}</span>
      </div>
    </figure>
  );
}

export interface FunnelStep {
  label: string;
  value: number;
  formatted: string;
  /** "25 % of visits", or what to say without visits. */
  share: string;
}

/** Visits → orders → payments, each bar as wide as its share of the widest step. */
export function Funnel({ steps, label }: { steps: FunnelStep[]; label: string }) {
  const max = Math.max(0, ...steps.map((s) => s.value));
  return (
    <ol aria-label={label} className="space-y-3">
      {steps.map((step, i) => {
        const percent = max > 0 ? Math.max(step.value > 0 ? 2 : 0, (step.value / max) * 100) : 0;
        return (
          <li key={step.label}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
              <span className="font-semibold text-slate-200">{step.label}</span>
              <span className="text-slate-300 tabular-nums">
                <span className="font-bold text-white">{step.formatted}</span> · {step.share}
              </span>
            </div>
            <div className="mt-1 flex h-6 justify-center rounded bg-slate-800" aria-hidden="true">
              <div className={`h-6 rounded ${FUNNEL_COLORS[i] ?? "bg-sky-400"}`} style={{ width: `${percent}%` }} />
            </div>
          </li>
        );
      })}
    </ol>
  );
}

const FUNNEL_COLORS = ["bg-sky-400", "bg-violet-400", "bg-emerald-400"];
