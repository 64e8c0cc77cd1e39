// GET /api/bench/floor?bytes=N - a constant JSON body of N bytes: what a route handler costs by itself (npm run bench)
import { errorResponse } from "@/lib/api/errors";
import { env } from "@/lib/env";

const MAX_BYTES = 1_000_000;
// The benchmark asks for one size per scenario; the bound only stops a stray client filling memory.
const MAX_BODIES = 64;
const bodies = new Map<number, Uint8Array<ArrayBuffer>>();

/** Exactly `bytes` bytes of valid JSON: `{"pad":"xx…"}`, or a number of that many digits when shorter than that. */
function bodyOf(bytes: number): Uint8Array<ArrayBuffer> {
  let body = bodies.get(bytes);
  if (!body) {
    body = new TextEncoder().encode(bytes < 10 ? "1".repeat(bytes) : `{"pad":"${"x".repeat(bytes - 10)}"}`);
    if (bodies.size < MAX_BODIES) bodies.set(bytes, body);
  }
  return body;
}

export function GET(request: Request): Response {
  if (env.BENCH_FLOOR !== "1") return errorResponse("not_found", { method: request.method, path: new URL(request.url).pathname });
  const raw = new URL(request.url).searchParams.get("bytes") ?? "";
  const bytes = /^\d{1,7}$/.test(raw) ? Number(raw) : 0;
  if (bytes < 1 || bytes > MAX_BYTES)
    return errorResponse("invalid_field", { message: `bytes must be an integer from 1 to ${MAX_BYTES}` }, { param: "bytes" });
  return new Response(bodyOf(bytes), { headers: { "content-type": "application/json" } });
}
