import "server-only";
import http from "node:http";
import https from "node:https";

const installed = globalThis as unknown as { gkPeerForwarding?: boolean };

/**
 * Appends each request's socket peer to X-Forwarded-For, as a reverse proxy would, before Next
 * sees it. Route handlers get no socket, and Next only fills X-Forwarded-For when the client sent
 * none, so without this a client could name any address it liked. With the peer always the
 * right-most entry, lib/http/client-ip.ts can skip exactly the proxies it trusts (TRUST_PROXY).
 * Called from instrumentation.ts; requests that arrive while the server is still starting (before
 * it runs) carry only what Next wrote.
 */
export function installPeerAddressForwarding(): void {
  if (installed.gkPeerForwarding) return;
  installed.gkPeerForwarding = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const req = args[0] as http.IncomingMessage;
        const peer = req.socket?.remoteAddress;
        if (peer) {
          const given = req.headers["x-forwarded-for"];
          req.headers["x-forwarded-for"] = given ? `${given}, ${peer}` : peer;
        }
      }
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}
