import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type ReceiverAnswer = (req: ReceivedRequest, res: http.ServerResponse, index: number) => void;

/** A real callback receiver on 127.0.0.1 that records every request and answers as the test says. */
export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Replaces how the next requests are answered. */
  answer(fn: ReceiverAnswer): void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: ReceiverAnswer = (_, res) => res.writeHead(204).end()): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let current = answer;
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      requests.push(received);
      waiters.splice(0).forEach((w) => w());
      current(received, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    answer: (fn) => {
      current = fn;
    },
    async waitForRequests(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
      return requests.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
