import "server-only";
import http from "node:http";
import https from "node:https";
import { bufferVisit, campaignVisitOf } from "./visits";

const installed = globalThis as unknown as { gkVisitCounting?: boolean };

/**
 * Counts a campaign visit when its page has answered: a 200 HTML document. Next's proxy runs before
 * the page and cannot know whether it exists (a made-up game id or path is a 404 rendered later),
 * so the count is taken where the answer's status is known, the HTTP server (hooked as
 * lib/http/peer-address.ts does, from instrumentation.ts): a 404, a redirect, an error page or a
 * JSON answer counts nothing, whatever campaign its URL names.
 */
export function installCampaignVisitCounting(): void {
  if (installed.gkVisitCounting) return;
  installed.gkVisitCounting = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") countWhenAnswered(args[0] as http.IncomingMessage, args[1] as http.ServerResponse);
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}

function countWhenAnswered(req: http.IncomingMessage, res: http.ServerResponse): void {
  // Most requests name no campaign: they end here, before any parsing.
  if (!req.url?.includes("utm_")) return;
  let url: URL;
  try {
    url = new URL(req.url, "http://store.invalid");
  } catch {
    return;
  }
  const headers = {
    get: (name: string) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
  const visit = campaignVisitOf({ method: req.method ?? "", pathname: url.pathname, searchParams: url.searchParams, headers }, new Date());
  if (!visit) return;
  res.once("finish", () => {
    if (res.statusCode === 200 && /^text\/html\b/.test(String(res.getHeader("content-type") ?? ""))) bufferVisit(visit);
  });
}
