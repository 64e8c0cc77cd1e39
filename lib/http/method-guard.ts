import "server-only";
import http from "node:http";
import https from "node:https";
import { headersOf, messageOf, statusOf } from "@/lib/api/reasons";
import type { ErrorBody } from "@/lib/errors";
import { log } from "@/lib/log";

const installed = globalThis as unknown as { gkMethodGuard?: boolean };

/**
 * The methods Next routes (its HTTP_METHODS); a route handler answers those it lacks with its own
 * 405. Anything else never reaches a handler: TRACE fails building Next's Request (a 500 with a
 * stack trace, before proxy.ts could run), and other verbs (PROPFIND...) render a page or get a bare 400.
 */
const ROUTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ROUTED = new Set<string>(ROUTED_METHODS);
const ALLOW = ROUTED_METHODS.join(", ");

/**
 * Answers a request whose method Next does not route with 405 `method_not_allowed` and `Allow`,
 * before Next sees it. Called from instrumentation.ts, like the peer-address forwarding, which
 * hooks the same place. (CONNECT and unknown tokens such as TRACK never get here: Node's parser
 * closes the connection or answers 400 itself.)
 */
export function installMethodGuard(): void {
  if (installed.gkMethodGuard) return;
  installed.gkMethodGuard = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
        if (!ROUTED.has(req.method ?? "")) {
          refuseMethod(req, res);
          return true;
        }
      }
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}

function refuseMethod(req: http.IncomingMessage, res: http.ServerResponse): void {
  const details = { method: req.method ?? "", allow: ALLOW };
  const status = statusOf("method_not_allowed");
  const body: ErrorBody = { code: status, message: messageOf("method_not_allowed", details), reason: "method_not_allowed" };
  const requestId = crypto.randomUUID();
  res.writeHead(status, {
    ...headersOf("method_not_allowed", details),
    "Content-Type": "application/json",
    "X-Content-Type-Options": "nosniff",
    "X-Request-Id": requestId,
  });
  res.end(JSON.stringify(body));
  req.resume();
  log.info({ requestId, method: details.method, route: "(method not routed)", status, reason: "method_not_allowed" }, "request");
}
