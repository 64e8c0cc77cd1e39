import pg from "pg";
import { inject } from "vitest";

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function api<T = any>(
  path: string,
  options: { token?: string | null; method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  const tokens = inject("appTokens");
  const token = options.token === undefined ? tokens.full : options.token;
  const headers: Record<string, string> = { ...options.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${inject("appBaseUrl")}${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: tests that care assert on the text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Runs one query against the database the app under test uses. */
export async function appQuery<R extends pg.QueryResultRow = any>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: inject("appDatabaseUrl") });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export async function intentCount(): Promise<number> {
  const [row] = await appQuery<{ n: number }>("SELECT count(*)::int AS n FROM intents");
  return row!.n;
}
