import "server-only";
import { z } from "zod";
import { getDb, type Database, type DbExecutor } from "@/lib/db/client";
import type { ApiScope } from "@/lib/schemas/tokens";
import { authenticateToken, ownershipOf, type AuthToken } from "@/lib/services/tokens";
import { readIdempotencyKey, withIdempotency } from "@/lib/services/idempotency";
import { validationMessage } from "@/lib/schemas/validation";
import { routePattern } from "@/lib/metrics";
import { rateLimitHeaders } from "@/lib/rate-limit-headers";
import {
  POLICIES,
  enforceRateLimit,
  hitRateLimit,
  peekRateLimit,
  rateLimitsEnabled,
  tooManyRequests,
  type RateLimitResult,
} from "@/lib/services/rate-limits";
import { ApiError, errorResponse, forbidden, unauthorized } from "./errors";
import { clientAddressOf, elapsedMs, internalError, logRequest, requestIdOf } from "./request-context";

export const MAX_BODY_BYTES = 64 * 1024;

export interface ApiContext<Q, B, P, D = Database> {
  request: Request;
  requestId: string;
  token: AuthToken;
  /** For an idempotent route, the transaction its Idempotency-Key is stored in when one was sent. */
  db: D;
  query: Q;
  body: B;
  params: P;
}

interface ApiOptions<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, I extends boolean> {
  /** The scope a token must hold; every /api/v1 route needs one. */
  scope: ApiScope;
  query?: Q;
  body?: B;
  /**
   * Honour `Idempotency-Key` (lib/services/idempotency.ts): the handler runs inside the key's
   * transaction and its 2xx response is replayed to a retry with the same key and body.
   */
  idempotent?: I;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type RouteContext<P> = { params: Promise<P> };

/**
 * Wraps an /api/v1 route handler: bearer token and scope, rate limits (per token; per client
 * address without a valid token; wrong promo codes per owner), content type, body size, JSON
 * parsing, schema validation of query and body, every error mapped to `{ code, message }` with a
 * request id, and one log line and the metrics per request.
 */
export function withApi<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P = Record<string, string>,
  I extends boolean = false,
>(
  options: ApiOptions<Q, B, I>,
  handler: (ctx: ApiContext<Output<Q>, Output<B>, P, I extends true ? DbExecutor : Database>) => Promise<Response> | Response,
) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const url = new URL(request.url);
    const route = routePattern(url.pathname);
    const ip = clientAddressOf(request.headers);
    const counted: RateLimitResult[] = [];
    let token: AuthToken | null = null;
    let response: Response;
    try {
      const db = getDb();
      token = await authenticate(db, request, options.scope, ip, counted);
      if (rateLimitsEnabled()) counted.push(await enforceRateLimit(db, `token:${token.id}`, POLICIES.token, "requests with this token"));
      const idempotencyKey = options.idempotent ? readIdempotencyKey(request) : null;
      const query = options.query ? parse(options.query, Object.fromEntries(url.searchParams)) : undefined;
      const rawBody = options.body ? await readJsonBody(request) : undefined;
      const body = options.body ? parse(options.body, rawBody) : undefined;
      const params = context?.params ? await context.params : ({} as P);
      const promoKey = rateLimitsEnabled() ? promoGuessKey(body, token, ip) : null;
      if (promoKey) await checkPromoGuesses(db, promoKey, counted);
      const run = (executor: DbExecutor) =>
        Promise.resolve(
          handler({
            request,
            requestId,
            token: token!,
            db: executor as I extends true ? DbExecutor : Database,
            query: query as Output<Q>,
            body: body as Output<B>,
            params,
          }),
        );
      try {
        response =
          idempotencyKey === null
            ? await run(db)
            : await withIdempotency(db, { ...ownershipOf(token), key: idempotencyKey, route: `${request.method} ${url.pathname}`, body: rawBody }, run);
      } catch (err) {
        // A refused promo code is a guess: it uses one of the owner's few; the 400 itself stands.
        if (promoKey && err instanceof ApiError && err.reason === "promo_code") counted.push(await hitRateLimit(db, promoKey, POLICIES.promo));
        throw err;
      }
    } catch (err) {
      response = toErrorResponse(err, { requestId, method: request.method, route });
    }
    response.headers.set("X-Request-Id", requestId);
    response.headers.set("X-Content-Type-Options", "nosniff");
    if (counted.length > 0 && !response.headers.has("RateLimit")) {
      for (const [name, value] of Object.entries(rateLimitHeaders(counted))) response.headers.set(name, value);
    }
    logRequest({
      requestId,
      method: request.method,
      route,
      status: response.status,
      ms: elapsedMs(started),
      ip,
      ...(token ? { tokenId: token.id, tokenName: token.name } : {}),
    });
    return response;
  };
}

function toErrorResponse(err: unknown, context: { requestId: string; method: string; route: string }): Response {
  if (err instanceof ApiError) return errorResponse(err.status, err.message, err.headers);
  return internalError(err, context);
}

/**
 * Whose promo-code guesses a request with a code counts against: the token's owner, or for the
 * store's own pages (whose guests share one owner) the client's address. Null without a code.
 */
function promoGuessKey(body: unknown, token: AuthToken, ip: string): string | null {
  const code = body && typeof body === "object" && "code" in body ? (body as { code?: unknown }).code : undefined;
  if (code === undefined || code === null || code === "") return null;
  return token.purpose === "storefront" ? `promo:ip:${ip}` : `promo:user:${token.userId}`;
}

/** Before any work: an owner with no promo guesses left gets 429 for every request with a code, right or wrong. */
async function checkPromoGuesses(db: Database, key: string, counted: RateLimitResult[]): Promise<void> {
  const promo = await peekRateLimit(db, key, POLICIES.promo);
  if (!promo.allowed) throw tooManyRequests(key.startsWith("promo:ip:") ? "wrong promo codes from this address" : "wrong promo codes for this token's owner", promo, counted);
}

/**
 * The request's token, or the 401. A request without a valid token counts against its client
 * address instead (the stricter per-address limit), so guessing tokens is limited too.
 */
async function authenticate(db: Database, request: Request, scope: ApiScope, ip: string, counted: RateLimitResult[]): Promise<AuthToken> {
  const refuse = async (error: ApiError): Promise<never> => {
    if (rateLimitsEnabled()) counted.push(await enforceRateLimit(db, `ip:${ip}`, POLICIES.ip, "requests without a valid token from this address"));
    throw error;
  };
  const header = request.headers.get("authorization");
  if (!header) return refuse(unauthorized("missing bearer token: send Authorization: Bearer <token>"));
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return refuse(unauthorized("the Authorization header must be: Bearer <token>", "invalid_request"));
  const result = await authenticateToken(db, match[1]);
  if (!result.ok) {
    const why = { malformed: "is not a valid token", unknown: "is not a valid token", expired: "has expired", revoked: "has been revoked" };
    return refuse(unauthorized(`the bearer token ${why[result.reason]}`, "invalid_token"));
  }
  if (!result.token.scopes.includes(scope)) {
    throw forbidden(`this token lacks the "${scope}" scope`);
  }
  return result.token;
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const nul = pathWithNul(input);
  // PostgreSQL text cannot hold U+0000; no field has a use for it, so it is refused by name.
  if (nul !== null) throw new ApiError(400, `${nul || "the request"} must not contain the NUL character (U+0000)`);
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiError(400, validationMessage(result.error, input));
  return result.data;
}

/** The dotted path of the first string (or key) holding U+0000, or null when there is none. */
function pathWithNul(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes("\u0000")) return path;
    const found = pathWithNul(inner, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  const mediaType = type.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new ApiError(415, "the request body must be JSON: send Content-Type: application/json");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(request, MAX_BODY_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, "the request body is not valid UTF-8");
  }
  if (!text.trim()) throw new ApiError(400, "the request body is empty: send a JSON object");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, "the request body is not valid JSON");
  }
  // No request nests deeper than a few levels; refusing more keeps every later walk shallow.
  if (depthExceeds(parsed, MAX_BODY_DEPTH)) throw new ApiError(400, `the request body nests more than ${MAX_BODY_DEPTH} levels deep`);
  return parsed;
}

const MAX_BODY_DEPTH = 32;

/** Whether a parsed JSON value nests deeper than `limit`; iterative, so any depth is safe to ask about. */
function depthExceeds(root: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (depth > limit) return true;
    for (const inner of Object.values(value)) stack.push([inner, depth + 1]);
  }
  return false;
}

const tooLarge = () => new ApiError(413, `the request body must be at most ${MAX_BODY_BYTES / 1024} KiB`);

async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

type Method = "GET" | "POST";

/**
 * Handlers for the methods a route does not implement (405 with `Allow`), and OPTIONS naming the
 * ones it does. A route spreads them beside its own: `export const { POST, ... } = otherMethods("GET")`.
 */
export function otherMethods(...implemented: Method[]) {
  const allow = [...implemented, ...(implemented.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed = (request: Request): Response =>
    errorResponse(405, `${request.method} is not allowed here; allowed: ${allow}`, { Allow: allow });
  const OPTIONS = (): Response => new Response(null, { status: 204, headers: { Allow: allow } });
  return { GET: notAllowed, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed, OPTIONS };
}

/** Routes answer with their data as JSON; `status` defaults to 200. */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(data, { status, headers });
}
