import { paginationItems } from "@/lib/queries/catalog-url";
import { format } from "@/lib/i18n/format";

export interface PaginationLabels {
  label: string;
  previous: string;
  next: string;
  page: string;
}

const ITEM = "inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-3 text-sm";

/**
 * Page links that work as plain links (new tab, no script) and let the owner take over a plain
 * click through `onNavigate` (call `event.preventDefault()` to handle it in place).
 */
export function Pagination({
  page,
  pageCount,
  hrefFor,
  onNavigate,
  labels,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
  onNavigate?: (page: number, event: React.MouseEvent<HTMLAnchorElement>) => void;
  labels: PaginationLabels;
}) {
  if (pageCount <= 1) return null;
  const link = (target: number, children: React.ReactNode, extra: React.AnchorHTMLAttributes<HTMLAnchorElement> = {}) => (
    <a
      href={hrefFor(target)}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        onNavigate?.(target, event);
      }}
      {...extra}
    >
      {children}
    </a>
  );
  const pageLink = (target: number) =>
    link(target, target, {
      "aria-label": format(labels.page, { page: target }),
      "aria-current": target === page ? "page" : undefined,
      className: `${ITEM} ${target === page ? "bg-sky-500 font-bold text-slate-950" : "text-slate-200 hover:bg-slate-800"}`,
    });
  return (
    <nav aria-label={labels.label} className="mt-8">
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          {page > 1 ? (
            link(page - 1, <>← {labels.previous}</>, {
              rel: "prev",
              className: `${ITEM} border border-slate-700 text-slate-100 hover:bg-slate-800`,
            })
          ) : (
            <span aria-disabled="true" className={`${ITEM} border border-slate-800 text-slate-500`}>
              ← {labels.previous}
            </span>
          )}
        </li>
        {paginationItems(page, pageCount).map((item, i) =>
          item === "gap" ? (
            <li key={`gap-${i}`} aria-hidden="true" className="hidden min-h-11 items-center px-1 text-slate-400 sm:inline-flex">
              …
            </li>
          ) : (
            <li key={item} className={item === page ? "" : "hidden sm:block"}>
              {pageLink(item)}
            </li>
          ),
        )}
        <li>
          {page < pageCount ? (
            link(page + 1, <>{labels.next} →</>, {
              rel: "next",
              className: `${ITEM} border border-slate-700 text-slate-100 hover:bg-slate-800`,
            })
          ) : (
            <span aria-disabled="true" className={`${ITEM} border border-slate-800 text-slate-500`}>
              {labels.next} →
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
