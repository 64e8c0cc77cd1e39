type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: Schema;
  anyOf?: Schema[];
  example?: unknown;
};

export interface Operation {
  summary: string;
  "x-scope": string;
  parameters?: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
  responses: Record<string, { description: string; "x-reasons"?: string[]; content?: { "application/json": { schema: Schema } } }>;
}

function resolve(schema: Schema, schemas: Record<string, unknown>): Schema {
  if (!schema.$ref) return schema;
  return (schemas[schema.$ref.split("/").pop() ?? ""] ?? {}) as Schema;
}

function typeLabel(schema: Schema, schemas: Record<string, unknown>): string {
  if (schema.$ref) return schema.$ref.split("/").pop() ?? "object";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.anyOf) return schema.anyOf.map((s) => typeLabel(s, schemas)).join(" | ");
  if (schema.type === "array" && schema.items) return `array of ${typeLabel(schema.items, schemas)}`;
  return Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
}

function rules(schema: Schema): string {
  const out: string[] = [];
  if (schema.minimum !== undefined && schema.minimum > -1e15) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < 1e15) out.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} chars`);
  if (schema.format) out.push(schema.format);
  if (schema.example !== undefined) out.push(`e.g. ${JSON.stringify(schema.example)}`);
  return out.join(", ");
}

function Fields({ schema, schemas, prefix = "" }: { schema: Schema; schemas: Record<string, unknown>; prefix?: string }) {
  const resolved = resolve(schema, schemas);
  const rows = Object.entries(resolved.properties ?? {});
  return (
    <>
      {rows.map(([name, field]) => {
        const inner = resolve(field, schemas);
        const nested = inner.type === "object" && inner.properties;
        return [
          <tr key={prefix + name} className="border-t border-slate-800 align-top">
            <td className="py-1 pr-3 font-mono text-sky-200">
              {prefix}
              {name}
            </td>
            <td className="py-1 pr-3 text-slate-400">{typeLabel(field, schemas)}</td>
            <td className="py-1 pr-3">{resolved.required?.includes(name) ? "required" : ""}</td>
            <td className="py-1 text-slate-300">{[field.description ?? inner.description, rules(inner)].filter(Boolean).join(" — ")}</td>
          </tr>,
          nested ? <Fields key={`${prefix}${name}.`} schema={inner} schemas={schemas} prefix={`${prefix}${name}.`} /> : null,
        ];
      })}
    </>
  );
}

function FieldTable({ schema, schemas }: { schema: Schema; schemas: Record<string, unknown> }) {
  return (
    // Focusable so a keyboard user can scroll a table wider than a phone's screen.
    <div
      className="mt-2 overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-sky-400"
      tabIndex={0}
      role="region"
      aria-label="Fields"
    >
      <table className="w-full text-left text-sm">
        <thead className="text-slate-400">
          <tr>
            <th className="py-1 pr-3 font-medium">Field</th>
            <th className="py-1 pr-3 font-medium">Type</th>
            <th className="py-1 pr-3 font-medium">
              <span className="sr-only">Required</span>
            </th>
            <th className="py-1 font-medium">Meaning</th>
          </tr>
        </thead>
        <tbody>
          <Fields schema={schema} schemas={schemas} />
        </tbody>
      </table>
    </div>
  );
}

export function OperationSection(props: {
  id: string;
  method: string;
  path: string;
  op: Operation;
  schemas: Record<string, unknown>;
  /** What each refusal reason means, by reason. */
  summaries: Record<string, string>;
}) {
  const { id, method, path, op, schemas, summaries } = props;
  return (
    <section id={id} className="mt-12 border-t border-slate-800 pt-8">
      <h2 className="font-mono text-xl font-semibold">
        <span className="mr-2 rounded bg-sky-900 px-2 py-0.5 text-sky-200">{method.toUpperCase()}</span>
        /api/v1{path}
      </h2>
      <p className="mt-2 text-slate-300">
        {op.summary}. Scope: <code className="text-sky-200">{op["x-scope"]}</code>.
      </p>
      {op.parameters?.length ? (
        <>
          <h3 className="mt-5 font-semibold">Parameters</h3>
          <FieldTable
            schema={{
              type: "object",
              properties: Object.fromEntries(op.parameters.map((p) => [p.name, { ...p.schema, description: p.description }])),
              required: op.parameters.filter((p) => p.required).map((p) => p.name),
            }}
            schemas={schemas}
          />
        </>
      ) : null}
      {op.requestBody ? (
        <>
          <h3 className="mt-5 font-semibold">Request body</h3>
          <FieldTable schema={op.requestBody.content["application/json"].schema} schemas={schemas} />
        </>
      ) : null}
      <h3 className="mt-5 font-semibold">Responses</h3>
      <ul className="mt-2 space-y-3 text-sm">
        {Object.entries(op.responses).map(([status, response]) => (
          <li key={status}>
            <span className="mr-2 font-mono font-semibold">{status}</span>
            {response["x-reasons"] ? (
              <ul className="mt-1 ml-10 space-y-1">
                {response["x-reasons"].map((reason) => (
                  <li key={reason} className="text-slate-300">
                    <code className="rounded bg-slate-800 px-1 text-sky-200">{reason}</code> {summaries[reason]}
                  </li>
                ))}
              </ul>
            ) : (
              <span className="text-slate-300">{response.description}</span>
            )}
            {status.startsWith("2") && response.content ? (
              <FieldTable schema={response.content["application/json"].schema} schemas={schemas} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
