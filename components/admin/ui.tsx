// What every back-office page shares: its heading, tables, filter forms and paging, all plain
// server-rendered HTML whose state lives in the URL (a GET form filters, a link pages), so each view
// can be bookmarked, shared and used without script.
import Link from "next/link";

// `relative`: an sr-only header (position: absolute) stays inside the scroller, not past the page's right edge.
export const tableWrapClass = "relative mt-4 overflow-x-auto rounded-lg border border-slate-800";
export const tableClass = "w-full min-w-[40rem] border-collapse text-left text-sm";
export const thClass = "border-b border-slate-700 bg-slate-900 px-3 py-2 font-semibold text-slate-200";
export const tdClass = "border-b border-slate-800 px-3 py-2 align-top text-slate-200";
export const badgeClass =
  "inline-flex items-center rounded-full border border-slate-600 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-slate-200";

export function AdminHeading({ title, intro, children }: { title: string; intro?: string; children?: React.ReactNode }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold text-white">{title}</h1>
        {intro ? <p className="mt-1 max-w-3xl text-sm text-slate-300">{intro}</p> : null}
      </div>
      {children ? <div className="flex flex-wrap gap-2">{children}</div> : null}
    </header>
  );
}

/** Previous / next links that keep every other parameter of the URL. */
export function Pager({
  path,
  params,
  page,
  pageCount,
  labels,
}: {
  path: string;
  params: Record<string, string | undefined>;
  page: number;
  pageCount: number;
  labels: { previous: string; next: string; pageOf: string };
}) {
  const href = (target: number) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
    if (target > 1) query.set("page", String(target));
    else query.delete("page");
    const qs = query.toString();
    return qs ? `${path}?${qs}` : path;
  };
  const item = "inline-flex min-h-10 items-center rounded-md border px-3 text-sm";
  return (
    <nav aria-label={labels.pageOf} className="mt-4 flex items-center justify-between gap-2">
      {page > 1 ? (
        <Link href={href(page - 1)} rel="prev" className={`${item} border-slate-600 text-slate-100 hover:bg-slate-800`}>
          ← {labels.previous}
        </Link>
      ) : (
        <span aria-disabled="true" className={`${item} border-slate-800 text-slate-500`}>
          ← {labels.previous}
        </span>
      )}
      <span className="text-sm text-slate-300">{labels.pageOf}</span>
      {page < pageCount ? (
        <Link href={href(page + 1)} rel="next" className={`${item} border-slate-600 text-slate-100 hover:bg-slate-800`}>
          {labels.next} →
        </Link>
      ) : (
        <span aria-disabled="true" className={`${item} border-slate-800 text-slate-500`}>
          {labels.next} →
        </span>
      )}
    </nav>
  );
}

/** One string from a page's search parameters (the first when repeated), or undefined when empty. */
export function param(params: Record<string, string | string[] | undefined>, key: string): string | undefined {
  const value = params[key];
  const first = Array.isArray(value) ? value[0] : value;
  return first ? first : undefined;
}

export type AdminSearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * A table's scrolling frame: at phone width a wide table scrolls sideways, so the frame is a named,
 * focusable region a keyboard user can scroll too.
 */
export function TableRegion({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`${tableWrapClass} focus-visible:outline-2 focus-visible:outline-sky-400`}
    >
      {children}
    </div>
  );
}
