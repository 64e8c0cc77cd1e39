// The machine's limit for `npm run bench`: node:http answering ?bytes=N with a constant body, nothing else.
// Runs in its own process (forked by scripts/bench.ts) so it does not share an event loop with the load generator.
import http from "node:http";
import type { AddressInfo } from "node:net";

const bodies = new Map<number, Buffer>();

// The same bytes as GET /api/bench/floor?bytes=N.
function bodyOf(bytes: number): Buffer {
  let body = bodies.get(bytes);
  if (!body) {
    body = Buffer.from(bytes < 10 ? "1".repeat(bytes) : `{"pad":"${"x".repeat(bytes - 10)}"}`);
    bodies.set(bytes, body);
  }
  return body;
}

const server = http.createServer((req, res) => {
  const bytes = Number(new URL(req.url ?? "/", "http://localhost").searchParams.get("bytes"));
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 1_000_000) {
    res.writeHead(400).end();
    return;
  }
  const body = bodyOf(bytes);
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
});

server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
// The benchmark going away for any reason, even SIGKILL, must not leave this server behind.
process.on("disconnect", () => process.exit(0));
