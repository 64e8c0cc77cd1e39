import type { Reason } from "@/lib/errors";

/**
 * An /api/v1 refusal as the browser sees it: the status and the body's `reason` and `param`, which
 * pages branch on, and `message`, which they show only when they do not know the reason.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason: Reason | null = null,
    readonly param?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

// Plain checks rather than zod: this module is on every storefront page, and these two shapes do
// not justify zod's weight in each page's first load.
interface Issued {
  token: string;
  expiresAt: string;
  owner: "user" | "guest";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isIssued(value: unknown): value is Issued {
  return (
    isRecord(value) &&
    typeof value.token === "string" &&
    typeof value.expiresAt === "string" &&
    (value.owner === "user" || value.owner === "guest")
  );
}

function refusalOf(status: number, body: unknown): ApiRequestError {
  if (!isRecord(body) || typeof body.code !== "number" || typeof body.message !== "string") {
    return new ApiRequestError(status, `the store answered ${status}`);
  }
  const reason = typeof body.reason === "string" ? (body.reason as Reason) : null;
  const details = isRecord(body.details) ? body.details : undefined;
  return new ApiRequestError(status, body.message, reason, typeof body.param === "string" ? body.param : undefined, details);
}

/** Renew this long before the server's expiry, so a request never leaves with a dying token. */
const RENEW_MARGIN_MS = 60_000;
const STORAGE_KEY = "gk.storefront-token";

let pending: Promise<string> | null = null;

function stored(): { token: string; expiresAt: number } | null {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null");
    if (!isIssued(saved)) return null;
    const expiresAt = Date.parse(saved.expiresAt);
    return expiresAt - RENEW_MARGIN_MS > Date.now() ? { token: saved.token, expiresAt } : null;
  } catch {
    return null;
  }
}

async function issue(): Promise<string> {
  const response = await fetch("/api/storefront/token", { method: "POST", credentials: "same-origin" });
  if (!response.ok) throw new ApiRequestError(response.status, "the store could not start a session; reload the page");
  const issued: unknown = await response.json();
  if (!isIssued(issued)) throw new ApiRequestError(502, "the store answered the session request with an unexpected body; reload the page");
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(issued));
  } catch {
    // Private modes may refuse storage; the token then lives for this page only.
  }
  return issued.token;
}

/**
 * The session's short-lived storefront token (see the API docs, "The store's own pages"):
 * kept in sessionStorage for the tab, renewed before it expires, one request at a time.
 */
function storefrontToken(): Promise<string> {
  const current = stored();
  if (current) return Promise.resolve(current.token);
  pending ??= issue().finally(() => {
    pending = null;
  });
  return pending;
}

/** Drops the session's token, e.g. after sign-in or sign-out changes who owns new intents. */
export function forgetStorefrontToken(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}

/**
 * Calls an /api/v1 endpoint from the browser with the session's token; the same endpoints and
 * checks as any partner's call. A rejected token (expired or revoked) is renewed once.
 */
export async function apiFetch<T>(
  path: `/api/v1/${string}`,
  init: { method?: "GET" | "POST"; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const token = await storefrontToken();
    const response = await fetch(path, {
      method: init.method ?? "GET",
      signal: init.signal,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (response.status === 401 && attempt === 0) {
      forgetStorefrontToken();
      continue;
    }
    const body: unknown = await response.json().catch(() => null);
    if (response.ok) return body as T;
    throw refusalOf(response.status, body);
  }
}
