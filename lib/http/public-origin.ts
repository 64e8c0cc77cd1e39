import "server-only";
import { env } from "@/lib/env";

const SANE_HOST = /^[A-Za-z0-9.\-[\]:]{1,255}$/;
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/**
 * The origin of absolute links the store hands out or renders: `paymentUrl` (which a signed
 * callback carries), cover images, canonical and Open Graph URLs. Any client can send any `Host`
 * and `X-Forwarded-*`, so only configuration or our own proxies decide it:
 * - `PUBLIC_BASE_URL` when it is set (production should set it);
 * - behind `TRUST_PROXY` proxies, the `X-Forwarded-Host` / `X-Forwarded-Proto` they write (else `Host`);
 * - with clients connecting directly, `Host` only when it names this machine's loopback (development
 *   on localhost, any port), and `http://localhost:PORT` for anything else.
 */
export function originFromHeaders(headers: Pick<Headers, "get">): string {
  if (env.PUBLIC_BASE_URL) return configuredOrigin();
  const first = (name: string) => headers.get(name)?.split(",")[0]?.trim() || undefined;
  const fallback = configuredOrigin();
  if (env.TRUST_PROXY > 0) {
    const host = first("x-forwarded-host") ?? first("host");
    const proto = first("x-forwarded-proto") === "https" ? "https" : "http";
    return host && SANE_HOST.test(host) ? `${proto}://${host}` : fallback;
  }
  const host = first("host");
  return host && LOOPBACK_HOST.test(host) ? `http://${host.toLowerCase()}` : fallback;
}

/**
 * The origin for links made without a request (the background worker, mail rendered outside a
 * request): `PUBLIC_BASE_URL`, else `http://localhost:PORT`.
 */
export function configuredOrigin(): string {
  return env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/$/, "") : `http://localhost:${env.PORT}`;
}

/** originFromHeaders for a route handler's request. */
export function publicOrigin(request: Request): string {
  return originFromHeaders(request.headers);
}
