import "server-only";
import { z } from "zod";
import { getDb, type Database, type DbExecutor } from "@/lib/db/client";
import { DomainError, PROMO_GUESS_REASONS, isDomainError, type Reason } from "@/lib/errors";
import type { ApiScope } from "@/lib/schemas/tokens";
import { clientKeyOf } from "@/lib/services/holds";
import { authenticateToken, ownershipOf, type AuthToken } from "@/lib/services/tokens";
import { readIdempotencyKey, withIdempotency } from "./idempotency";
import { validationMessage } from "@/lib/schemas/validation";
import { routePattern } from "@/lib/metrics";
import { rateLimitHeaders } from "@/lib/rate-limit-headers";
import { returnPromoGuess, takePromoGuess } from "@/lib/services/promo-guesses";
import { POLICIES, enforceRateLimit, rateLimitsEnabled, type RateLimitResult } from "@/lib/services/rate-limits";
import type { Endpoint } from "./endpoints";
import { domainErrorResponse, errorResponse } from "./errors";
import { clientAddressOf, elapsedMs, internalError, logRequest, requestIdOf } from "./request-context";

export const MAX_BODY_BYTES = 64 * 1024;

export interface ApiContext<Q, B, P, D = Database> {
  request: Request;
  requestId: string;
  token: AuthToken;
  /** The client address as the open-holds caps count it (a hash, lib/services/holds.ts). */
  clientKey: string;
  /** For an idempotent route, the transaction its Idempotency-Key is stored in when one was sent. */
  db: D;
  query: Q;
  body: B;
  params: P;
  /**
   * The request's promo code was wrong although nothing was thrown (a quote answers its refusals
   * in a 200): its guess stays counted, as a thrown promo-code refusal's does.
   */
  keepPromoGuess: () => void;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type QueryOf<E> = E extends Endpoint<infer Q, infer _B, infer _P, infer _I> ? Output<Q> : never;
type BodyOf<E> = E extends Endpoint<infer _Q, infer B, infer _P, infer _I> ? Output<B> : never;
type ParamsOf<E> = E extends Endpoint<infer _Q, infer _B, infer P, infer _I> ? { [K in P]: string } : never;
/** An idempotent endpoint's handler runs inside the key's transaction when a key was sent. */
type ExecutorOf<E> = E extends Endpoint<infer _Q, infer _B, infer _P, infer I> ? (I extends true ? DbExecutor : Database) : never;
type RouteContext<P> = { params: Promise<P> };

/** A mounted route handler, carrying the descriptor it serves (the route/OpenAPI agreement test reads it). */
export type ApiRouteHandler = ((request: Request, context: RouteContext<Record<string, string>>) => Promise<Response>) & {
  endpoint: Endpoint;
};

/**
 * Wraps an /api/v1 route handler in everything its descriptor (lib/api/endpoints.ts) declares:
 * bearer token and scope, rate limits (per token; per client address without a valid token;
 * promo-code guesses per owner and per address), content type, body size, JSON parsing, schema validation of
 * query and body, idempotency, every refusal mapped to `{code, message, reason, param}` with a
 * request id, and one log line and the metrics per request.
 */
export function withApi<const E extends Endpoint>(
  endpoint: E,
  handler: (ctx: ApiContext<QueryOf<E>, BodyOf<E>, ParamsOf<E>, ExecutorOf<E>>) => Promise<Response> | Response,
): ApiRouteHandler {
  const queries = endpoint.query ? new QueryMemo(endpoint.query) : null;
  const route = async (request: Request, context: RouteContext<Record<string, string>>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const url = new URL(request.url);
    const routeName = routePattern(url.pathname);
    const ip = clientAddressOf(request.headers);
    const counted: RateLimitResult[] = [];
    let token: AuthToken | null = null;
    let refused: Reason | undefined;
    let response: Response;
    try {
      const db = getDb();
      token = await authenticate(db, request, endpoint.scope, ip, counted);
      if (rateLimitsEnabled()) {
        counted.push(await enforceRateLimit(db, `token:${token.id}`, POLICIES.token, "requests with this token"));
        // A guest token is free to mint, so guests' tokens from one address share one quota as well.
        if (token.guest) counted.push(await enforceRateLimit(db, `guests:${ip}`, POLICIES.guests, "requests from guests at this address"));
      }
      const idempotencyKey = endpoint.idempotent ? readIdempotencyKey(request) : null;
      const query = queries ? queries.parse(url) : undefined;
      const rawBody = endpoint.body ? (endpoint.bodyOptional && hasNoBody(request) ? {} : await readJsonBody(request)) : undefined;
      const body = endpoint.body ? parse(endpoint.body, rawBody) : undefined;
      const params = context?.params ? await context.params : {};
      const promoGuess =
        rateLimitsEnabled() && endpoint.rateLimits && hasCode(body, endpoint.rateLimits.promoGuessField)
          ? await takePromoGuess(db, token, ip, counted)
          : null;
      if (promoGuess) counted.push(promoGuess.state);
      let guessed = false;
      const run = (executor: DbExecutor) =>
        Promise.resolve(
          handler({
            request,
            requestId,
            token: token!,
            // A hash: worked out only for the handlers that ask (the reservations of the store's own pages).
            get clientKey() {
              return clientKeyOf(ip);
            },
            db: executor as ExecutorOf<E>,
            query: query as QueryOf<E>,
            body: body as BodyOf<E>,
            params: params as ParamsOf<E>,
            keepPromoGuess: () => void (guessed = true),
          }),
        );
      try {
        response =
          idempotencyKey === null
            ? await run(db)
            : await withIdempotency(
                db,
                { ...ownershipOf(token), key: idempotencyKey, route: `${request.method} ${url.pathname}`, body: rawBody },
                run,
              );
      } catch (err) {
        guessed ||= isDomainError(err, ...PROMO_GUESS_REASONS);
        throw err;
      } finally {
        // Counted before it was judged; only a wrong code keeps its count (a used-up code is real).
        if (promoGuess && !guessed) await returnPromoGuess(db, promoGuess);
      }
    } catch (err) {
      if (err instanceof DomainError) refused = err.reason;
      response = toErrorResponse(err, { requestId, method: request.method, route: routeName });
    }
    response.headers.set("X-Request-Id", requestId);
    response.headers.set("X-Content-Type-Options", "nosniff");
    if (counted.length > 0 && !response.headers.has("RateLimit")) {
      for (const [name, value] of Object.entries(rateLimitHeaders(counted))) response.headers.set(name, value);
    }
    logRequest({
      requestId,
      method: request.method,
      route: routeName,
      status: response.status,
      ms: elapsedMs(started),
      ip,
      ...(refused ? { reason: refused } : {}),
      ...(token ? { tokenId: token.id, tokenName: token.name } : {}),
    });
    return response;
  };
  return Object.assign(route, { endpoint: endpoint as Endpoint });
}

function toErrorResponse(err: unknown, context: { requestId: string; method: string; route: string }): Response {
  return err instanceof DomainError ? domainErrorResponse(err) : internalError(err, context);
}

/** Whether the request names a promo code in `field`: only then is it a guess (lib/services/promo-guesses.ts). */
function hasCode(body: unknown, field: string): boolean {
  const code = body && typeof body === "object" && field in body ? (body as Record<string, unknown>)[field] : undefined;
  return code !== undefined && code !== null && code !== "";
}

/**
 * The request's token, or the 401. A request without a valid token counts against its client
 * address instead (the stricter per-address limit), so guessing tokens is limited too.
 */
async function authenticate(db: Database, request: Request, scope: ApiScope, ip: string, counted: RateLimitResult[]): Promise<AuthToken> {
  const refuse = async (error: DomainError): Promise<never> => {
    if (rateLimitsEnabled())
      counted.push(await enforceRateLimit(db, `ip:${ip}`, POLICIES.ip, "requests without a valid token from this address"));
    throw error;
  };
  const header = request.headers.get("authorization");
  if (!header) return refuse(new DomainError("missing_token", {}));
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return refuse(new DomainError("invalid_token", { problem: "authorization_header" }));
  const result = await authenticateToken(db, match[1]);
  if (!result.ok) {
    if (result.reason === "expired") return refuse(new DomainError("token_expired", {}));
    if (result.reason === "revoked") return refuse(new DomainError("token_revoked", {}));
    return refuse(new DomainError("invalid_token", { problem: "not_a_token" }));
  }
  if (!result.token.scopes.includes(scope)) throw new DomainError("insufficient_scope", { scope });
  return result.token;
}

/**
 * A query string's parsed value, kept for the next request with the same string: a busy GET (the
 * catalog) sees a few hundred distinct query strings, and parsing is a pure function of the text.
 * Only successes are kept (a refusal is built afresh each time); values are frozen, since every
 * request with that string shares one.
 */
class QueryMemo<S extends z.ZodType> {
  private static readonly MAX = 1000;
  private readonly parsed = new Map<string, z.output<S>>();

  constructor(private readonly schema: S) {}

  parse(url: URL): z.output<S> {
    const known = this.parsed.get(url.search);
    if (known !== undefined) return known;
    const value = Object.freeze(parse(this.schema, Object.fromEntries(url.searchParams))) as z.output<S>;
    if (this.parsed.size >= QueryMemo.MAX) this.parsed.delete(this.parsed.keys().next().value!);
    this.parsed.set(url.search, value);
    return value;
  }
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const bad = pathWithUnstorableText(input);
  // PostgreSQL cannot hold U+0000 (text) nor a lone surrogate (jsonb); no field has a use for
  // either, so they are refused by name before any field's own rule or the database meets them.
  if (bad !== null) {
    const field = bad.path || "the request";
    const message =
      bad.problem === "nul"
        ? `${field} must not contain the NUL character (U+0000)`
        : `${field} must be well-formed Unicode (it has a lone surrogate)`;
    throw new DomainError("invalid_field", { message }, bad.path || undefined);
  }
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, input);
  return result.data;
}

/**
 * The 400 for the first problem zod found: `unknown_field` for a field the schema does not know,
 * a custom check's own reason when it names one from the catalogue (`trade_link_mismatch`,
 * `invite_link_undecodable`), else
 * `invalid_field`; `param` is the field's dotted path.
 */
function validationError(error: z.ZodError, input: unknown): DomainError {
  const issue = error.issues[0];
  const path = issue ? issue.path.map(String).join(".") : "";
  const message = validationMessage(error, input);
  if (issue?.code === "unrecognized_keys") {
    const fields = issue.keys.map((k) => (path ? `${path}.${k}` : k));
    return new DomainError("unknown_field", { fields }, fields[0]);
  }
  const custom = issue?.code === "custom" ? issue.params?.reason : undefined;
  if (custom === "trade_link_mismatch" || custom === "invite_link_undecodable") return new DomainError(custom, { message }, path);
  return new DomainError("invalid_field", { message }, path || undefined);
}

// In a `u` regex a surrogate pair is one code point, so this matches only an unpaired half
// (JSON's "\ud800" escape makes one); String#isWellFormed is newer than our ES2023 lib.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

function textProblem(text: string): "nul" | "lone_surrogate" | null {
  if (text.includes("\u0000")) return "nul";
  return LONE_SURROGATE.test(text) ? "lone_surrogate" : null;
}

/** The dotted path and problem of the first string (or key) the database could not store, or null. */
function pathWithUnstorableText(value: unknown, path = ""): { path: string; problem: "nul" | "lone_surrogate" } | null {
  if (typeof value === "string") {
    const problem = textProblem(value);
    return problem ? { path, problem } : null;
  }
  if (value === null || typeof value !== "object") return null;
  for (const [key, inner] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) return { path, problem: keyProblem };
    const found = pathWithUnstorableText(inner, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

/** A request that sent no body at all: no Content-Type and a zero or absent Content-Length. */
function hasNoBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return !request.headers.get("content-type") && (length === null || length === "0");
}

async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  const mediaType = type.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new DomainError("unsupported_media_type", {});
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(request, MAX_BODY_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError("invalid_body", { problem: "not_utf8" });
  }
  if (!text.trim()) throw new DomainError("invalid_body", { problem: "empty" });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new DomainError("invalid_body", { problem: "not_json" });
  }
  // No request nests deeper than a few levels; refusing more keeps every later walk shallow.
  if (depthExceeds(parsed, MAX_BODY_DEPTH)) throw new DomainError("invalid_body", { problem: "too_deep", maxDepth: MAX_BODY_DEPTH });
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

const tooLarge = () => new DomainError("body_too_large", { maxBytes: MAX_BODY_BYTES });

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
  const notAllowed = (request: Request): Response => errorResponse("method_not_allowed", { method: request.method, allow });
  const OPTIONS = (): Response => new Response(null, { status: 204, headers: { Allow: allow } });
  return { GET: notAllowed, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed, OPTIONS };
}

/** A body that is JSON text already (a service's cached serialisation); `status` defaults to 200. */
export function jsonText(text: string | Uint8Array<ArrayBuffer>, status = 200): Response {
  return new Response(text, { status, headers: { "content-type": "application/json" } });
}

/** Routes answer with their data as JSON; `status` defaults to 200. */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(data, { status, headers });
}
