import "server-only";
import http from "node:http";
import https from "node:https";
import { messageOf, statusOf } from "@/lib/api/reasons";
import type { ErrorBody } from "@/lib/errors";
import { log } from "@/lib/log";
import { BAD_PATH_HEADER, BAD_PATH_PAGE } from "./request-marks";

const installed = globalThis as unknown as { gkPathGuard?: boolean };

/**
 * Answers a request whose path does not percent-decode (`/games/%FF`, `/api/v1/intents/%E0`) with
 * 400 `invalid_path`, a request id and a log line. Next decodes a dynamic segment while routing,
 * before proxy.ts, and a URIError there was a bare 500 with neither. Under /api the answer is the
 * API's JSON; a page's is the store's own 400 page in the shopper's language: the request goes to
 * BAD_PATH_PAGE with its status made 400, and proxy.ts gives it the page's headers and this id.
 * Called from instrumentation.ts, like the method guard, which hooks the same place.
 */
export function installPathGuard(): void {
  if (installed.gkPathGuard) return;
  installed.gkPathGuard = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
        delete req.headers[BAD_PATH_HEADER];
        if (!decodes(pathOf(req.url ?? "/")) && guard(req, res)) return true;
      }
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** Whether Next can decode the path (it decodes each segment with decodeURIComponent). */
export function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Answers the request itself (true), or sends it on to the store's 400 page (false). */
function guard(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const requestId = crypto.randomUUID();
  const status = statusOf("invalid_path");
  const method = req.method ?? "";
  log.info({ requestId, method, route: "(path does not decode)", status, reason: "invalid_path" }, "request");
  const path = pathOf(req.url ?? "/");
  if (path === "/api" || path.startsWith("/api/") || (method !== "GET" && method !== "HEAD")) {
    const body: ErrorBody = { code: status, message: messageOf("invalid_path", {}), reason: "invalid_path" };
    res.writeHead(status, { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff", "X-Request-Id": requestId });
    res.end(method === "HEAD" ? undefined : JSON.stringify(body));
    req.resume();
    return true;
  }
  req.url = BAD_PATH_PAGE;
  req.headers[BAD_PATH_HEADER] = "1";
  req.headers["x-request-id"] = requestId;
  // The page renders as any page does (200); what the client gets is this request's 400.
  const writeHead = res.writeHead as (this: http.ServerResponse, code: number, ...rest: unknown[]) => http.ServerResponse;
  res.writeHead = function (this: http.ServerResponse, code: number, ...rest: unknown[]) {
    return writeHead.call(this, code === 200 ? status : code, ...rest);
  } as typeof res.writeHead;
  return false;
}
