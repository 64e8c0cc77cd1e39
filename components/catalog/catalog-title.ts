import { format } from "@/lib/i18n/format";
import type { Messages } from "@/lib/i18n/messages";

/** The catalog's document title: the search when there is one. */
export function catalogTitle(q: string | undefined, t: Messages): string {
  return q ? format(t.catalog.searchTitle, { query: q }) : t.catalog.title;
}
