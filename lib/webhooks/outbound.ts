import "server-only";
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { classifyAddress, type AddressClass } from "./addresses";

export interface OutboundOptions {
  /** Whole attempt: DNS, connect, request, answer. */
  timeoutMs: number;
  /** Bytes of the answer read before the connection is dropped; the status alone decides. */
  maxResponseBytes: number;
  /** Lower-case host names (or literal addresses) that may resolve to non-public addresses. */
  allowHosts: ReadonlySet<string>;
  /** Name resolution; tests substitute one to play a rebinding or split-horizon DNS. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export type OutboundResult =
  | { ok: true; status: number; durationMs: number; responseBytes: number; truncated: boolean }
  /**
   * No HTTP status: the URL is refused, the address is not public, DNS failed, timeout, connection
   * error. `error` is shown to the callback's owner, so it never says what a name resolved to (the
   * store's resolver may see a network the owner must not map); `refused` does, for the server log.
   */
  | { ok: false; error: string; permanent: boolean; durationMs: number; refused?: NonPublicAddress };

/** A host's answer that callbacks may not reach, for the operators' log only. */
export interface NonPublicAddress {
  host: string;
  address: string;
  kind: AddressClass;
}

const USER_AGENT = "GiftKey-Webhooks/1.0";

/** `WEBHOOK_ALLOW_HOSTS` text -> the set `postCallback` checks (`[::1]` and `::1` are the same host). */
export function parseAllowHosts(text: string): Set<string> {
  return new Set(
    text
      .split(",")
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, "$1"),
      )
      .filter(Boolean),
  );
}

const defaultResolve = (hostname: string) => lookup(hostname, { all: true, verbatim: true });

class Refused extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly address?: NonPublicAddress,
  ) {
    super(message);
  }
}

/**
 * POSTs a callback without letting it reach anything but the public internet: the host's
 * addresses are resolved here and every one must be public, then the connection goes to the exact
 * address that was checked (so a DNS answer that changes between check and connect - rebinding -
 * cannot redirect it), while SNI, certificate check and Host keep the name. Redirects are not
 * followed (a 3xx is an answer like any other non-2xx). The whole attempt has one deadline and at
 * most `maxResponseBytes` of the answer are read. Never throws: every outcome is a result.
 */
export async function postCallback(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: OutboundOptions,
): Promise<OutboundResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    const { url, address, hostname } = await vetTarget(target, options, deadline);
    const result = await send(url, address, hostname, body, headers, options, deadline);
    return { ok: true, ...result, durationMs: elapsed() };
  } catch (err) {
    if (err instanceof Refused)
      return {
        ok: false,
        error: err.message,
        permanent: err.permanent,
        durationMs: elapsed(),
        ...(err.address ? { refused: err.address } : {}),
      };
    const error = deadline.aborted ? `no answer within ${options.timeoutMs} ms` : describeNetworkError(err);
    return { ok: false, error, permanent: false, durationMs: elapsed() };
  }
}

async function vetTarget(target: string, options: OutboundOptions, deadline: AbortSignal) {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new Refused("the callback URL is not a valid URL", true);
  }
  const hostname = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  const allowed = options.allowHosts.has(hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowed)) {
    throw new Refused(
      `callbacks are sent over https only (http:// only to hosts allowed for development), not to ${url.protocol}//${url.host}`,
      true,
    );
  }
  if (url.username || url.password) throw new Refused("a callback URL may not carry credentials", true);

  let addresses: string[];
  if (isIP(hostname)) {
    addresses = [hostname];
  } else {
    try {
      addresses = (await untilDeadline((options.resolve ?? defaultResolve)(hostname), deadline)).map((a) => a.address);
    } catch (err) {
      if (deadline.aborted) throw err;
      throw new Refused(
        `the callback host ${hostname} could not be resolved (${(err as NodeJS.ErrnoException).code ?? "DNS error"})`,
        false,
      );
    }
    if (addresses.length === 0) throw new Refused(`the callback host ${hostname} has no addresses`, false);
  }
  if (!allowed) {
    for (const address of addresses) {
      const kind = classifyAddress(address);
      // Any one non-public answer refuses the host: a round-robin of one public and one private
      // address is the classic way past a check that looks at the first answer only.
      if (kind !== "public") {
        const what = isIP(hostname) ? "is not a public address" : "resolves to an address that is not public";
        throw new Refused(`the callback host ${hostname} ${what}, which callbacks may not reach`, false, { host: hostname, address, kind });
      }
    }
  }
  return { url, hostname, address: addresses[0]! };
}

function send(
  url: URL,
  address: string,
  hostname: string,
  body: string,
  headers: Record<string, string>,
  options: OutboundOptions,
  deadline: AbortSignal,
): Promise<{ status: number; responseBytes: number; truncated: boolean }> {
  const payload = Buffer.from(body, "utf8");
  const request = (url.protocol === "https:" ? https : http).request({
    host: address,
    port: url.port || (url.protocol === "https:" ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: "POST",
    // The vetted address is dialled; the name still drives SNI and the certificate check.
    servername: isIP(hostname) ? undefined : hostname,
    agent: false,
    signal: deadline,
    headers: {
      ...headers,
      host: url.host,
      "content-type": "application/json",
      "content-length": String(payload.length),
      "user-agent": USER_AGENT,
    },
  });
  return new Promise((resolve, reject) => {
    request.once("error", reject);
    request.once("response", (response) => {
      // The status is the outcome; what follows is read only so the connection closes cleanly,
      // and a deadline or reset while reading it changes nothing.
      request.removeListener("error", reject);
      request.on("error", () => {});
      response.on("error", () => {});
      const status = response.statusCode ?? 0;
      let responseBytes = 0;
      let truncated = false;
      const finish = () => resolve({ status, responseBytes, truncated });
      if (options.maxResponseBytes === 0) {
        truncated = true;
        response.destroy();
        return finish();
      }
      response.on("data", (chunk: Buffer) => {
        responseBytes += chunk.length;
        if (responseBytes > options.maxResponseBytes) {
          responseBytes = options.maxResponseBytes;
          truncated = true;
          response.destroy();
          finish();
        }
      });
      response.once("end", finish);
      response.once("close", finish);
    });
    request.end(payload);
  });
}

function untilDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(deadline.reason);
    if (deadline.aborted) return onAbort();
    deadline.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener("abort", onAbort));
  });
}

/**
 * A failed connection in words, for the owner's delivery log: the known codes as a phrase, anything
 * else as Node says it, less the addresses it names ("connect EACCES 10.0.0.5:443"): they are what
 * the host resolved to.
 */
export function describeNetworkError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    ETIMEDOUT: "connection timed out",
    EPIPE: "connection closed while sending",
    ERR_TLS_CERT_ALTNAME_INVALID: "TLS certificate does not match the host",
    DEPTH_ZERO_SELF_SIGNED_CERT: "TLS certificate is self-signed",
    SELF_SIGNED_CERT_IN_CHAIN: "TLS certificate chain is self-signed",
    CERT_HAS_EXPIRED: "TLS certificate has expired",
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS certificate cannot be verified",
    HPE_INVALID_CONSTANT: "the answer is not HTTP",
  };
  const code = e?.code;
  if (code && known[code]) return `${known[code]} (${code})`;
  const message = e?.message?.replace(IPV4_WITH_PORT, "an address").replace(IPV6_WITH_PORT, "an address");
  return (code ? `${message} (${code})` : message) || "network error";
}

const IPV4_WITH_PORT = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;
const IPV6_WITH_PORT = /\[?\b(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?:%\w+)?\]?(?::\d+)?/gi;
