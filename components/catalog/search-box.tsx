"use client";

import { useEffect, useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";

/** Typing settles for this long before the search runs (and the URL changes). */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * Search as you type. The text is the input's own state; it reaches the URL `SEARCH_DEBOUNCE_MS`
 * after the last keystroke (Enter: at once). When the URL changes for another reason (Back, a link
 * to the catalog) the text follows it.
 */
export function SearchBox({
  value,
  filters,
  onSearch,
}: {
  value: string;
  /** Sent along when the form is submitted without script, so a search keeps the filters. */
  filters: { genre?: string; category?: string };
  onSearch: (text: string) => void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The last text this box sent, so the URL echoing it back is not mistaken for an outside change.
  const sent = useRef(value);

  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    clearTimeout(timer.current);
    // The URL changed from outside (Back, a link to the catalog): the box mirrors it.
    setText(value);
  }, [value]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const send = (next: string) => {
    clearTimeout(timer.current);
    const trimmed = next.trim();
    if (trimmed === sent.current) return;
    sent.current = trimmed;
    onSearch(trimmed);
  };

  return (
    <form
      role="search"
      action="/"
      method="get"
      className="relative"
      onSubmit={(event) => {
        event.preventDefault();
        send(text);
      }}
    >
      {filters.genre && <input type="hidden" name="genre" value={filters.genre} />}
      {filters.category && <input type="hidden" name="category" value={filters.category} />}
      <label htmlFor="catalog-search" className="sr-only">
        {t.catalog.search.label}
      </label>
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 fill-slate-400"
      >
        <path d="M8.5 3a5.5 5.5 0 0 1 4.38 8.83l3.65 3.64a.75.75 0 1 1-1.06 1.06l-3.64-3.65A5.5 5.5 0 1 1 8.5 3Zm0 1.5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z" />
      </svg>
      <input
        id="catalog-search"
        name="q"
        type="search"
        inputMode="search"
        enterKeyHint="search"
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        placeholder={t.catalog.search.placeholder}
        value={text}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => send(next), SEARCH_DEBOUNCE_MS);
        }}
        className="h-12 w-full rounded-lg border border-slate-600 bg-slate-900 pr-3 pl-10 text-base text-white placeholder:text-slate-400 focus:border-sky-400"
      />
    </form>
  );
}
