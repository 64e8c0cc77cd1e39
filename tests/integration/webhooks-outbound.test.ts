import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseAllowHosts, postCallback, type OutboundOptions } from "@/lib/webhooks/outbound";
import { freeLoopbackPort } from "@/tests/support/db";
import { startReceiver, type Receiver } from "@/tests/support/receiver";

const BODY = JSON.stringify({ type: "intent.paid", timestamp: "2026-01-01T00:00:00.000Z", data: { intentId: "i-1" } });
const HEADERS = { "webhook-id": "msg_1", "webhook-timestamp": "1767225600", "webhook-signature": "v1,abc=" };

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
afterEach(() => {
  receiver.requests.length = 0;
  receiver.answer((_, res) => res.writeHead(204).end());
});

const options = (over: Partial<OutboundOptions> = {}): OutboundOptions => ({
  timeoutMs: 2_000,
  maxResponseBytes: 1024,
  allowHosts: new Set(),
  ...over,
});

const resolveTo = (...addresses: string[]) => {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolve, calls };
};

describe("postCallback refuses what callbacks may not reach", () => {
  // The last column is what only the server log gets: the address a host was refused for, and its kind.
  const refused: [string, string, Partial<OutboundOptions>, string, boolean, { address?: string; kind: string }?][] = [
    [
      "loopback by IP",
      "https://127.0.0.1:PORT/hook",
      {},
      "the callback host 127.0.0.1 is not a public address, which callbacks may not reach",
      false,
      { address: "127.0.0.1", kind: "loopback" },
    ],
    [
      "IPv6 loopback",
      "https://[::1]:PORT/hook",
      {},
      "the callback host ::1 is not a public address, which callbacks may not reach",
      false,
      { address: "::1", kind: "loopback" },
    ],
    [
      "IPv4-mapped loopback",
      "https://[::ffff:127.0.0.1]:PORT/hook",
      {},
      "the callback host ::ffff:7f00:1 is not a public address, which callbacks may not reach",
      false,
      { address: "::ffff:7f00:1", kind: "loopback" },
    ],
    [
      "a hex-encoded loopback",
      "https://0x7f.1:PORT/hook",
      {},
      "the callback host 127.0.0.1 is not a public address, which callbacks may not reach",
      false,
      { address: "127.0.0.1", kind: "loopback" },
    ],
    [
      "the metadata service",
      "https://169.254.169.254/latest/meta-data/",
      {},
      "the callback host 169.254.169.254 is not a public address, which callbacks may not reach",
      false,
      { address: "169.254.169.254", kind: "metadata" },
    ],
    [
      "AWS metadata over IPv6",
      "https://[fd00:ec2::254]/latest",
      {},
      "the callback host fd00:ec2::254 is not a public address, which callbacks may not reach",
      false,
      { address: "fd00:ec2::254", kind: "metadata" },
    ],
    [
      "a private network",
      "https://10.1.2.3/hook",
      {},
      "the callback host 10.1.2.3 is not a public address, which callbacks may not reach",
      false,
      { address: "10.1.2.3", kind: "private" },
    ],
    [
      "a name resolving to a private address",
      "https://partner.example/hook",
      { resolve: resolveTo("192.168.0.10").resolve },
      "the callback host partner.example resolves to an address that is not public, which callbacks may not reach",
      false,
      { address: "192.168.0.10", kind: "private" },
    ],
    [
      "a name with one public and one private answer",
      "https://partner.example/hook",
      { resolve: resolveTo("93.184.216.34", "10.0.0.5").resolve },
      "the callback host partner.example resolves to an address that is not public, which callbacks may not reach",
      false,
      { address: "10.0.0.5", kind: "private" },
    ],
    [
      "a name resolving to CGNAT",
      "https://partner.example/hook",
      { resolve: resolveTo("100.64.1.1").resolve },
      "the callback host partner.example resolves to an address that is not public, which callbacks may not reach",
      false,
      { address: "100.64.1.1", kind: "cgnat" },
    ],
    [
      "a name resolving to unique-local IPv6",
      "https://partner.example/hook",
      { resolve: resolveTo("2606:4700::1", "fd12::1").resolve },
      "the callback host partner.example resolves to an address that is not public, which callbacks may not reach",
      false,
      { address: "fd12::1", kind: "unique-local" },
    ],
    [
      "localhost by name",
      "https://localhost:PORT/hook",
      {},
      "the callback host localhost resolves to an address that is not public, which callbacks may not reach",
      false,
      { kind: "loopback" },
    ],
    [
      "plain http to a host not allowed",
      "http://partner.example/hook",
      {},
      "callbacks are sent over https only (http:// only to hosts allowed for development), not to http://partner.example",
      true,
    ],
    [
      "plain http to loopback not allowed",
      "http://127.0.0.1:PORT/hook",
      {},
      "callbacks are sent over https only (http:// only to hosts allowed for development), not to http://127.0.0.1:PORT",
      true,
    ],
    [
      "another scheme",
      "ftp://partner.example/hook",
      {},
      "callbacks are sent over https only (http:// only to hosts allowed for development), not to ftp://partner.example",
      true,
    ],
    [
      "credentials in the URL",
      "https://user:pw@partner.example/hook",
      { resolve: resolveTo("93.184.216.34").resolve },
      "a callback URL may not carry credentials",
      true,
    ],
    ["not a URL", "not a url", {}, "the callback URL is not a valid URL", true],
  ];

  it.each(refused)("%s", async (_, url, over, message, permanent, address) => {
    const result = await postCallback(url.replace("PORT", String(receiver.port)), BODY, HEADERS, options(over));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBe(message.replace("PORT", String(receiver.port)));
    expect(result.permanent).toBe(permanent);
    expect(result.refused).toEqual(address ? { host: expect.any(String), address: expect.any(String), ...address } : undefined);
    // A name's answer is never in what the owner reads (a literal address is the owner's own text).
    if (result.refused && result.refused.host !== result.refused.address) expect(result.error).not.toContain(result.refused.address);
    expect(receiver.requests).toHaveLength(0);
  });

  it("says when a name does not resolve", async () => {
    const resolve = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" });
    };
    const result = await postCallback("https://nowhere.invalid/hook", BODY, HEADERS, options({ resolve }));
    expect(result).toMatchObject({
      ok: false,
      error: "the callback host nowhere.invalid could not be resolved (ENOTFOUND)",
      permanent: false,
    });
  });
});

describe("postCallback to an allowed development host", () => {
  it("delivers the exact body and headers and reports the status", async () => {
    receiver.answer((_, res) => res.writeHead(202).end("accepted"));
    const result = await postCallback(
      `${receiver.url}/hooks/gk?src=test`,
      BODY,
      HEADERS,
      options({ allowHosts: parseAllowHosts("127.0.0.1, localhost") }),
    );
    expect(result).toMatchObject({ ok: true, status: 202, responseBytes: 8, truncated: false });
    const [req] = receiver.requests;
    expect(req).toMatchObject({ method: "POST", url: "/hooks/gk?src=test", body: BODY });
    expect(req!.headers).toMatchObject({
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(BODY)),
      "user-agent": "GiftKey-Webhooks/1.0",
      host: `127.0.0.1:${receiver.port}`,
      ...HEADERS,
    });
  });

  it("dials the address it checked, once, and keeps the name in Host (no second lookup to rebind)", async () => {
    // A rebinding DNS would answer a second lookup differently; there must not be one.
    let lookups = 0;
    const resolve = async () => (++lookups === 1 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.9.9.9", family: 4 }]);
    const result = await postCallback(
      `http://receiver.test:${receiver.port}/cb`,
      BODY,
      HEADERS,
      options({ allowHosts: new Set(["receiver.test"]), resolve }),
    );
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(lookups).toBe(1);
    expect(receiver.requests[0]!.headers.host).toBe(`receiver.test:${receiver.port}`);
  });

  it("does not follow a redirect", async () => {
    receiver.answer((req, res) => (req.url === "/start" ? res.writeHead(302, { location: "/elsewhere" }).end() : res.writeHead(200).end()));
    const result = await postCallback(`${receiver.url}/start`, BODY, HEADERS, options({ allowHosts: new Set(["127.0.0.1"]) }));
    expect(result).toMatchObject({ ok: true, status: 302 });
    expect(receiver.requests.map((r) => r.url)).toEqual(["/start"]);
  });

  it("gives up at the deadline when the receiver does not answer", async () => {
    receiver.answer(() => {});
    const result = await postCallback(receiver.url, BODY, HEADERS, options({ allowHosts: new Set(["127.0.0.1"]), timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, error: "no answer within 300 ms", permanent: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it("reads at most the response limit of an endless answer, and keeps its status", async () => {
    let written = 0;
    receiver.answer((_, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, 97);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      res.on("close", () => res.destroy());
      pump();
    });
    const result = await postCallback(
      receiver.url,
      BODY,
      HEADERS,
      options({ allowHosts: new Set(["127.0.0.1"]), maxResponseBytes: 10_000, timeoutMs: 5_000 }),
    );
    expect(result).toMatchObject({ ok: true, status: 200, responseBytes: 10_000, truncated: true });
    expect(result.durationMs).toBeLessThan(2_000);
    expect(written).toBeLessThan(50 * 1024 * 1024);
  });

  it("reports a refused connection", async () => {
    const port = await freeLoopbackPort();
    const result = await postCallback(`http://127.0.0.1:${port}/`, BODY, HEADERS, options({ allowHosts: new Set(["127.0.0.1"]) }));
    expect(result).toMatchObject({ ok: false, error: "connection refused (ECONNREFUSED)", permanent: false });
  });
});

const hasOpenssl = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasOpenssl)("postCallback over TLS", () => {
  let dir: string;
  let server: https.Server;
  let port: number;
  const serverNames: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=receiver.test",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    const key = fs.readFileSync(path.join(dir, "key.pem"));
    const cert = fs.readFileSync(path.join(dir, "cert.pem"));
    server = https.createServer(
      {
        key,
        cert,
        SNICallback: (name, cb) => {
          serverNames.push(name);
          cb(null, undefined);
        },
      },
      (_, res) => res.writeHead(200).end(),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sends the host name as SNI while dialling the vetted address, and checks the certificate", async () => {
    const { resolve } = resolveTo("127.0.0.1");
    const result = await postCallback(
      `https://receiver.test:${port}/cb`,
      BODY,
      HEADERS,
      options({ allowHosts: new Set(["receiver.test"]), resolve }),
    );
    expect(serverNames).toEqual(["receiver.test"]);
    // A self-signed certificate is not trusted: verification is on even for an allowed host.
    expect(result).toMatchObject({ ok: false, error: "TLS certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)" });
  });
});
