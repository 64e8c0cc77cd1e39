import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { CATALOG_IMPORT_MAX_BYTES } from "@/lib/schemas/admin-catalog";
import { startNextProcess, stopChild, type NextProcess } from "@/scripts/lib/processes";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { Browser } from "./browser";

// The back office's catalog upload under hostile files: the largest file it takes, made of junk,
// must neither take the server process down nor come back as an answer the size of the file. A
// server of its own, with the V8 heap production gives each process (SERVER_HEAP_MIB, 256 MiB), so
// the process that took the upload can be watched: it is the one that answers after it.
const PASSWORD = "catalog upload test password 1";
const HEAP_MIB = 256;
const MAX_ANSWER_BYTES = 16 * 1024;
let t: TestDatabase;
let server: NextProcess;
let admin: Browser;

beforeAll(async () => {
  t = await createTestDatabase();
  const email = "catalog-upload-admin@example.com";
  const { rows } = await t.pool.query<{ id: string }>(
    "INSERT INTO users (email, password_hash, email_confirmed_at) VALUES ($1, $2, now()) RETURNING id",
    [email, await hashPassword(PASSWORD)],
  );
  await t.pool.query("INSERT INTO staff_members (user_id, role, granted_by) VALUES ($1, 'admin', 'test')", [rows[0]!.id]);
  server = await startNextProcess("catalog-upload", {
    DATABASE_URL: t.url,
    WORKER_ENABLED: "0",
    TRUST_PROXY: "1",
    NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}`,
  });
  admin = new Browser("192.0.2.90", server.baseUrl);
  expect((await admin.signIn(email, PASSWORD)).error).toBeNull();
}, 120_000);

afterAll(async () => {
  if (server) await stopChild(server.child);
  await t?.close();
});

/** The server's resident memory now and at its highest since it started (VmRSS, VmHWM), in MiB. */
function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1] ?? NaN);
  return { rssMiB: Math.round(kib("VmRSS") / 1024), peakMiB: Math.round(kib("VmHWM") / 1024) };
}

interface Upload {
  status: number;
  bytes: number;
  lines: any[];
}

/** Uploads `content` as the page's form does and reads the whole NDJSON answer. */
async function upload(content: string | Uint8Array, name = "catalog.jsonl"): Promise<Upload> {
  const form = new FormData();
  form.append("file", new Blob([content as BlobPart]), name);
  const res = await admin.fetch("/admin/catalog/import", { method: "POST", body: form, headers: { origin: server.baseUrl } });
  const text = await res.text();
  const lines = res.headers.get("content-type")?.startsWith("application/x-ndjson")
    ? text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [JSON.parse(text)];
  return { status: res.status, bytes: Buffer.byteLength(text), lines };
}

/** The server took the upload and lives on: the same process answers the next request. */
async function expectAlive(): Promise<void> {
  expect(server.child.exitCode).toBeNull();
  expect(server.child.signalCode).toBeNull();
  const health = await fetch(`${server.baseUrl}/api/health`);
  expect(health.status).toBe(200);
  expect(server.child.exitCode).toBeNull();
}

const lineErrors = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ entry: { line: from + i }, reason: "not_json", details: {} }));

describe("a catalog upload of junk", () => {
  it("of 5 MB in 2.6 million short lines: the server lives and answers the first 20 problems and the count", async () => {
    const lines = CATALOG_IMPORT_MAX_BYTES / 2;
    const before = memoryOf(server.child.pid!);
    const answer = await upload("x\n".repeat(lines));
    const after = memoryOf(server.child.pid!);
    console.log(
      `2.6M junk lines: answer ${answer.bytes} bytes; server RSS ${before.rssMiB} -> ${after.rssMiB} MiB, peak ${before.peakMiB} -> ${after.peakMiB} MiB`,
    );
    await expectAlive();
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBeLessThan(MAX_ANSWER_BYTES);
    expect(answer.lines.at(-1)).toEqual({
      type: "done",
      imported: 0,
      updated: 0,
      errors: { total: lines, byReason: { not_json: lines }, first: lineErrors(1, 20) },
      warnings: { total: 0, byReason: {}, first: [] },
    });
  });

  it("of 5 MB in one line: the server lives and says the line is not JSON", async () => {
    const before = memoryOf(server.child.pid!);
    const answer = await upload(`{"620": ${"[".repeat(1000)}${"x".repeat(CATALOG_IMPORT_MAX_BYTES - 1010)}`);
    const after = memoryOf(server.child.pid!);
    console.log(
      `one 5 MB line: answer ${answer.bytes} bytes; server RSS ${before.rssMiB} -> ${after.rssMiB} MiB, peak ${before.peakMiB} -> ${after.peakMiB} MiB`,
    );
    await expectAlive();
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBeLessThan(MAX_ANSWER_BYTES);
    expect(answer.lines.at(-1)).toEqual({
      type: "done",
      imported: 0,
      updated: 0,
      errors: { total: 1, byReason: { not_json: 1 }, first: lineErrors(1, 1) },
      warnings: { total: 0, byReason: {}, first: [] },
    });
  });

  it("mixed with games: imports the games and counts every bad line", async () => {
    const game = (appId: number) =>
      JSON.stringify({ [appId]: { success: true, data: { type: "game", name: `Upload Game ${appId}`, steam_appid: appId } } });
    const junk = "not json\n".repeat(100_000);
    const answer = await upload(`${game(4300001)}\n${junk}${game(4300002)}\n${junk}${game(4300003)}\n`);
    await expectAlive();
    expect(answer.bytes).toBeLessThan(MAX_ANSWER_BYTES);
    expect(answer.lines.at(-1)).toEqual({
      type: "done",
      imported: 3,
      updated: 0,
      errors: { total: 200_000, byReason: { not_json: 200_000 }, first: lineErrors(2, 20) },
      warnings: { total: 0, byReason: {}, first: [] },
    });
    const { rows } = await t.pool.query<{ app_id: number }>("SELECT app_id FROM games WHERE app_id BETWEEN 4300001 AND 4300003 ORDER BY 1");
    expect(rows.map((r) => r.app_id)).toEqual([4300001, 4300002, 4300003]);
  });

  it("of 6,000 new games: imports them all, with a line of progress per percent at most", async () => {
    const lines = Array.from({ length: 6000 }, (_, i) =>
      JSON.stringify({ [4500000 + i]: { success: true, data: { type: "game", name: `Bulk ${i}`, steam_appid: 4500000 + i } } }),
    );
    const answer = await upload(lines.join("\n"));
    await expectAlive();
    const progress = answer.lines.filter((l) => l.type === "progress");
    expect(progress.length).toBeLessThanOrEqual(101);
    expect(progress.at(-1)).toEqual({ type: "progress", done: 6000, total: 6000 });
    expect(answer.lines.at(-1)).toMatchObject({ type: "done", imported: 6000, updated: 0, errors: { total: 0 } });
    expect(answer.bytes).toBeLessThan(MAX_ANSWER_BYTES);
  });

  it("of more than the limit, sent without a Content-Length: refused as too large, nothing read past the limit", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Twice the limit, then the stream would go on: a server reading it all would wait forever.
        if (sent > 2 * CATALOG_IMPORT_MAX_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const boundary = "----giftkey-upload-test";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jsonl"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    let headSent = false;
    const withHead = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!headSent) {
          headSent = true;
          return controller.enqueue(head);
        }
        const reader = body.getReader();
        const { value, done } = await reader.read();
        reader.releaseLock();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    });
    const res = await admin.fetch("/admin/catalog/import", {
      method: "POST",
      body: withHead,
      headers: { origin: server.baseUrl, "content-type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 413, reason: "body_too_large" });
    await expectAlive();
  });
});
