import "server-only";
import http from "node:http";
import https from "node:https";
import { isPrefetch } from "@/lib/campaigns/visits";
import { PREFETCH_MARK } from "./request-marks";

const installed = globalThis as unknown as { gkPrefetchMark?: boolean };

/**
 * Marks a prefetch where proxy.ts can see it. Next hands the proxy each request without its router
 * headers (Next-Router-Prefetch, RSC: adapter.js strips its FLIGHT_HEADERS), so a router prefetch
 * of a campaign link would land the campaign's cookie as if the shopper had followed the link. The
 * HTTP server still has them; hooked from instrumentation.ts, like lib/http/peer-address.ts.
 */
export function installPrefetchMark(): void {
  if (installed.gkPrefetchMark) return;
  installed.gkPrefetchMark = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const req = args[0] as http.IncomingMessage;
        delete req.headers[PREFETCH_MARK];
        const get = (name: string) => {
          const value = req.headers[name];
          return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
        };
        if (isPrefetch({ get })) req.headers[PREFETCH_MARK] = "1";
      }
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}
