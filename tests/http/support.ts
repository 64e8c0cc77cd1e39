import pg from "pg";
import { expect, inject } from "vitest";
import { REASONS } from "@/lib/api/reasons";

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
  if (res.status >= 400 && res.headers.get("content-type")?.startsWith("application/json")) expectErrorBody(res.status, parsed);
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/**
 * Every JSON refusal is `{code, message, reason}` (and `param` when one field is at fault): `code`
 * is the status, `reason` is in the catalogue, and the catalogue gives that reason this status.
 * `api()` checks it on every answer, so each test's own expectations can stay about its case.
 */
export function expectErrorBody(status: number, body: unknown): void {
  expect(body, `error body for ${status}`).toEqual({
    code: status,
    message: expect.any(String),
    reason: expect.any(String),
    ...(body && typeof body === "object" && "param" in body ? { param: expect.any(String) } : {}),
    ...(body && typeof body === "object" && "details" in body ? { details: expect.any(Object) } : {}),
  });
  const reason = (body as { reason: string }).reason;
  expect(Object.keys(REASONS), `reason ${reason}`).toContain(reason);
  expect(REASONS[reason as keyof typeof REASONS].status, `status of ${reason}`).toBe(status);
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
