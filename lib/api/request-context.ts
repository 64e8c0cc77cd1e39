import "server-only";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/http/client-ip";
import { asError, log, logRequestLine, requestLog, scrubText, type RequestLine } from "@/lib/log";
import { observeRequest, routePattern } from "@/lib/metrics";
import { errorResponse } from "./errors";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The caller's X-Request-Id when it is a sane token (so a proxy's id follows the request), else a
 * new UUID. Sane: short, of letters, digits and `._-`, and left alone by the log's scrub (nothing
 * in it, such as a bearer token, that a log must not hold), so the id is logged and echoed as it
 * is; the scrub runs here, once, only on ids a caller sent.
 */
export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && SANE_REQUEST_ID.test(given) && scrubText(given) === given ? given : crypto.randomUUID();
}

/** The client's address for rate limits and logs (TRUST_PROXY decides which X-Forwarded-For entry). */
export function clientAddressOf(headers: { get(name: string): string | null }): string {
  return clientAddress(headers.get("x-forwarded-for"), env.TRUST_PROXY);
}

export type RequestLogFields = RequestLine;

/** One line per answered request, and the request metrics. 5xx at error level; probes at debug. */
export function logRequest(fields: RequestLogFields, quiet = false): void {
  observeRequest(fields.route, fields.method, fields.status, fields.ms / 1000);
  if (fields.status >= 500) log.error(fields, "request failed");
  else logRequestLine(requestLog, quiet ? "debug" : "info", fields, "request");
}

/** Sets a header on any response; one with immutable headers (a fetch or redirect result) is copied first. */
export function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

/** The generic 500: the error with its stack goes to the log under the request id, the client gets the id only. */
export function internalError(err: unknown, context: { requestId: string; method: string; route: string }): Response {
  log.error({ ...context, err: asError(err) }, "unhandled error");
  return errorResponse("internal_error", { requestId: context.requestId });
}

/**
 * For route handlers outside /api/v1 (the payment form, storefront tokens, health, metrics):
 * the request id on every response, one log line, the metrics, and a thrown error as the generic
 * 500 with the id instead of Next's bare page.
 */
export function withRequestContext<C>(
  handler: (request: Request, context: C, requestId: string) => Promise<Response> | Response,
  { quiet = false }: { quiet?: boolean } = {},
) {
  return async (request: Request, context: C): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const route = routePattern(new URL(request.url).pathname);
    let response: Response;
    try {
      response = await handler(request, context, requestId);
    } catch (err) {
      response = internalError(err, { requestId, method: request.method, route });
    }
    response = withHeader(response, "X-Request-Id", requestId);
    logRequest({ requestId, method: request.method, route, status: response.status, ms: elapsedMs(started) }, quiet);
    return response;
  };
}

export const elapsedMs = (started: number): number => Math.round((performance.now() - started) * 10) / 10;
