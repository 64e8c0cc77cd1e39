"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Field, describedBy } from "@/components/account/field";
import { inputClass, primaryButtonClass } from "@/components/account/styles";
import { useI18n } from "@/components/i18n/i18n-provider";
import { TableRegion, tableClass, tdClass, thClass } from "@/components/admin/ui";
import type { AdminActionResult } from "@/lib/admin/action";
import { importEntryText, importSkipText, importWarningText, type ImportProblemList } from "@/lib/catalog/import-problems";
import { intlLocale, type Locale } from "@/lib/i18n/config";
import { format } from "@/lib/i18n/format";
import { CATALOG_IMPORT_MAX_BYTES, gameRegionsSchema, type CatalogImportLine } from "@/lib/schemas/admin-catalog";
import { stringValues } from "./action-button";

/** A game's gift regions, as one comma-separated field. */
export function GameRegionsForm({
  appId,
  regions,
  action,
}: {
  appId: number;
  regions: string[];
  action: (input: { appId: number; regions: string }) => Promise<AdminActionResult<{ regions: string[] }>>;
}) {
  const { t } = useI18n();
  const m = t.adminCatalog.catalog;
  const router = useRouter();
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = { appId, regions: String(new FormData(event.currentTarget).get("regions") ?? "") };
    setSaved(null);
    if (!gameRegionsSchema.safeParse(input).success) return setError(m.regionsError);
    setError(null);
    setPending(true);
    try {
      const result = await action(input);
      if (result.ok) {
        setSaved(m.regionsSaved);
        router.refresh();
      } else setError(format(t.errors.reasons[result.reason], stringValues(result.details)));
    } catch {
      setError(t.adminCatalog.common.generic);
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-xl flex-col gap-3">
      <Field id={`${id}-regions`} label={m.regionsField} hint={m.regionsHint} error={error ?? undefined}>
        <input
          id={`${id}-regions`}
          name="regions"
          defaultValue={regions.join(", ")}
          spellCheck={false}
          autoCapitalize="characters"
          className={`${inputClass} uppercase`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(`${id}-regions`, { hint: true, error })}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? t.adminCatalog.common.saving : t.adminCatalog.common.save}
        </button>
        <p role="status" className="text-sm text-emerald-300">
          {saved}
        </p>
      </div>
    </form>
  );
}

type Done = Extract<CatalogImportLine, { type: "done" }>;

/**
 * Uploads a catalog file to /admin/catalog/import and reads its answer line by line as it comes
 * (NDJSON): progress while the games are written, then the counts and each game's error.
 */
export function CatalogImport() {
  const { t, locale } = useI18n();
  const m = t.adminCatalog.catalog.import;
  const router = useRouter();
  const id = useId();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<Done | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    setResult(null);
    setProgress(null);
    if (!(file instanceof File) || file.size === 0) return setError(m.noFile);
    if (file.size > CATALOG_IMPORT_MAX_BYTES)
      return setError(format(m.tooLarge, { size: format(m.megabytes, { n: Math.round(CATALOG_IMPORT_MAX_BYTES / 1024 / 1024) }) }));
    setError(null);
    setPending(true);
    try {
      const response = await fetch("/admin/catalog/import", { method: "POST", body: data });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as {
          reason?: keyof typeof t.errors.reasons;
          details?: Record<string, unknown>;
        } | null;
        setError(body?.reason ? format(t.errors.reasons[body.reason], stringValues(body.details)) : m.failed);
        return;
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (value) buffer += value;
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines.filter(Boolean)) {
          const message = JSON.parse(line) as CatalogImportLine;
          if (message.type === "progress") setProgress({ done: message.done, total: message.total });
          else if (message.type === "done") setResult(message);
          else setError(m.failed);
        }
        if (done) break;
      }
      router.refresh();
    } catch {
      setError(m.failed);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-3">
        <Field id={`${id}-file`} label={m.file} error={error ?? undefined}>
          <input
            id={`${id}-file`}
            name="file"
            type="file"
            accept="application/json,.json,.jsonl,.ndjson,.txt"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(`${id}-file`, { error })}
            className="block text-sm text-slate-200 file:mr-3 file:min-h-10 file:rounded-md file:border file:border-slate-500 file:bg-slate-900 file:px-3 file:text-slate-100"
          />
        </Field>
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? m.uploading : m.upload}
        </button>
      </form>
      <div aria-live="polite" className="space-y-2">
        {progress ? (
          <>
            <p className="text-sm text-slate-200">{format(m.progress, progress)}</p>
            <progress
              value={progress.done}
              max={Math.max(progress.total, 1)}
              className="h-2 w-full max-w-md accent-sky-400"
              aria-label={format(m.progress, progress)}
            />
          </>
        ) : null}
        {result ? (
          <p className="font-semibold text-white">
            {format(m.result, { imported: result.imported, updated: result.updated, errors: number(result.errors.total) })}
          </p>
        ) : null}
      </div>
      {result && result.errors.total > 0 ? (
        <section aria-labelledby={`${id}-errors`}>
          <h3 id={`${id}-errors`} className="text-base font-semibold text-white">
            {m.errorsHeading}
          </h3>
          <TableRegion label={m.errorsTable}>
            <table className={tableClass}>
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    {m.entry}
                  </th>
                  <th scope="col" className={thClass}>
                    {m.reason}
                  </th>
                </tr>
              </thead>
              <tbody>
                {result.errors.first.map((e, i) => (
                  <tr key={i}>
                    <td className={`${tdClass} font-mono whitespace-nowrap`}>{importEntryText(e, m.problems)}</td>
                    <td className={`${tdClass} break-words`}>{importSkipText(e, m.problems)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <ProblemCounts list={result.errors} kinds={m.problems.skipKinds} />
        </section>
      ) : null}
      {result && result.warnings.total > 0 ? (
        <section aria-labelledby={`${id}-warnings`}>
          <h3 id={`${id}-warnings`} className="text-base font-semibold text-white">
            {m.warningsHeading}
          </h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-300">
            {result.warnings.first.map((w, i) => (
              <li key={i} className="break-words">
                {importWarningText(w, m.problems)}
              </li>
            ))}
          </ul>
          <ProblemCounts list={result.warnings} kinds={m.problems.warningKinds} />
        </section>
      ) : null}
    </div>
  );

  function number(n: number): string {
    return formatCount(locale, n);
  }
}

const formatCount = (locale: Locale, n: number) => new Intl.NumberFormat(intlLocale(locale)).format(n);

/** Past the problems a list shows: that it shows only the first, and how many there were of each reason. */
function ProblemCounts({ list, kinds }: { list: ImportProblemList<{ reason: string }>; kinds: Readonly<Record<string, string>> }) {
  const { t, locale } = useI18n();
  const m = t.adminCatalog.catalog.import;
  if (list.total <= list.first.length) return null;
  return (
    <div className="mt-2 text-sm text-slate-300">
      <p>{format(m.shownOf, { shown: formatCount(locale, list.first.length), total: formatCount(locale, list.total) })}</p>
      <p className="mt-1">{m.byReason}</p>
      <ul className="mt-1 list-disc pl-5">
        {Object.entries(list.byReason).map(([reason, count]) => (
          <li key={reason}>{format(m.count, { kind: kinds[reason] ?? reason, count: formatCount(locale, count ?? 0) })}</li>
        ))}
      </ul>
    </div>
  );
}
