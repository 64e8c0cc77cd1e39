import type { Metadata } from "next";
import { API_GUIDE, buildOpenApiDocument } from "@/lib/openapi";
import { OperationSection, type Operation } from "./operation-section";

export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  const doc = buildOpenApiDocument();
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Operation })),
  );
  const catalogue = doc["x-reasons"];
  const summaries = Object.fromEntries(catalogue.map((r) => [r.reason, r.summary]));
  return (
    <main className="mx-auto max-w-4xl px-4 py-10" lang="en">
      <h1 className="text-3xl font-bold">{doc.info.title}</h1>
      <p className="mt-2 text-slate-300">
        Version {doc.info.version}. Base path <code className="text-sky-300">/api/v1</code>. The machine-readable document is at{" "}
        <a className="text-sky-300 underline" href="/api/v1/openapi.json">
          /api/v1/openapi.json
        </a>{" "}
        (OpenAPI 3.1, public; every other /api/v1 path needs a token).
      </p>
      <nav aria-label="Contents" className="mt-6 rounded border border-slate-800 p-4 text-sm">
        <ul className="grid gap-1 sm:grid-cols-2">
          {API_GUIDE.map((s) => (
            <li key={s.title}>
              <a className="text-sky-300 hover:underline" href={`#${anchor(s.title)}`}>
                {s.title}
              </a>
            </li>
          ))}
          <li>
            <a className="text-sky-300 hover:underline" href="#reasons">
              Refusal reasons
            </a>
          </li>
          {operations.map(({ path, method }) => (
            <li key={`${method} ${path}`}>
              <a className="font-mono text-sky-300 hover:underline" href={`#${anchor(method + path)}`}>
                {method.toUpperCase()} {path}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {API_GUIDE.map((section) => (
        <section key={section.title} id={anchor(section.title)} className="mt-10">
          <h2 className="text-xl font-semibold">{section.title}</h2>
          {section.body.map((p) =>
            p.startsWith("```") ? (
              <CodeBlock key={p} fenced={p} />
            ) : (
              <p key={p} className="mt-3 leading-relaxed text-slate-300">
                <Inline text={p} />
              </p>
            ),
          )}
        </section>
      ))}
      <section id="reasons" className="mt-10">
        <h2 className="text-xl font-semibold">Refusal reasons</h2>
        <p className="mt-3 leading-relaxed text-slate-300">
          Every error body&apos;s <code className="rounded bg-slate-800 px-1 text-sky-200">reason</code> is one of these. The status is
          always the same for a reason; the operations are those that can answer it.
        </p>
        <div
          className="mt-3 overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-sky-400"
          tabIndex={0}
          role="region"
          aria-label="Refusal reasons"
        >
          <table className="w-full text-left text-sm">
            <thead className="text-slate-400">
              <tr>
                <th className="py-1 pr-3 font-medium">Reason</th>
                <th className="py-1 pr-3 font-medium">Status</th>
                <th className="py-1 pr-3 font-medium">Meaning</th>
                <th className="py-1 font-medium">Operations</th>
              </tr>
            </thead>
            <tbody>
              {catalogue.map((r) => (
                <tr key={r.reason} id={`reason-${r.reason}`} className="border-t border-slate-800 align-top">
                  <td className="py-1 pr-3 font-mono text-sky-200">{r.reason}</td>
                  <td className="py-1 pr-3 font-mono">{r.status}</td>
                  <td className="py-1 pr-3 text-slate-300">
                    <Inline text={r.summary} />
                  </td>
                  <td className="py-1 font-mono text-xs text-slate-400">
                    {r.operations.length === operations.length
                      ? "every operation"
                      : r.operations.length
                        ? r.operations.join(", ")
                        : "the store's own pages"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {operations.map(({ path, method, op }) => (
        <OperationSection
          key={`${method} ${path}`}
          id={anchor(method + path)}
          method={method}
          path={path}
          op={op}
          schemas={doc.components.schemas}
          summaries={summaries}
        />
      ))}
    </main>
  );
}

function anchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** `code` spans in the guide's prose. */
export function Inline({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, i) =>
        part.startsWith("`") ? (
          <code key={i} className="rounded bg-slate-800 px-1 text-sky-200">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** A fenced block of the guide (```js … ```): scrollable, and reachable by keyboard to scroll it. */
function CodeBlock({ fenced }: { fenced: string }) {
  const code = fenced.replace(/^```\w*\n/, "").replace(/\n?```$/, "");
  return (
    <pre
      tabIndex={0}
      className="mt-3 overflow-x-auto rounded border border-slate-800 bg-slate-900 p-4 text-sm leading-relaxed text-slate-200 focus-visible:outline focus-visible:outline-2 focus-visible:outline-sky-400"
    >
      <code>{code}</code>
    </pre>
  );
}
