import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb, createPool, type Database } from "@/lib/db/client";
import { webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { attemptDelivery, claimDueDeliveries, leaseFor, type DeliveryConfig } from "@/lib/services/webhook-delivery";
import { getOrCreateWebhookSecret } from "@/lib/services/webhook-secrets";
import { RECEIVER_SERVER_SOURCE, RECEIVER_VERIFY_SOURCE } from "@/lib/webhooks/receiver-example";
import { verifyWebhook, webhookMessageId } from "@/lib/webhooks/signature";
import { BackgroundRunner } from "@/lib/worker/runner";
import { webhookDeliveryJob } from "@/lib/worker/webhook-job";
import { createTestDatabase, freeLoopbackPort, type TestDatabase } from "@/tests/support/db";
import { payIntentWithCallback, until } from "@/tests/support/paid-intent";
import { startReceiver, type Receiver } from "@/tests/support/receiver";

let t: TestDatabase;
let receiver: Receiver;
const runners: BackgroundRunner[] = [];

const config = (over: Partial<DeliveryConfig> = {}): DeliveryConfig => ({
  retryDelaysMs: [100, 200, 300],
  timeoutMs: 1_000,
  maxResponseBytes: 1024,
  allowHosts: new Set(["127.0.0.1"]),
  leaseMs: leaseFor(1_000),
  ...over,
});

function startWorker(db: Database, cfg = config(), concurrency = 10): BackgroundRunner {
  const runner = new BackgroundRunner().register(webhookDeliveryJob(db, cfg, { pollMs: 25, concurrency })).start();
  runners.push(runner);
  return runner;
}

beforeAll(async () => {
  t = await createTestDatabase();
  receiver = await startReceiver();
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  // Nothing from one test may be sent during the next.
  await t.db.execute(sql`UPDATE webhook_deliveries SET status = 'stopped', finished_at = now() WHERE status = 'pending'`);
  receiver.requests.length = 0;
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const delivery = async (id: string) => {
  const [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
};
const attempts = (id: string) =>
  t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(webhookAttempts.attempt);
const finished = (id: string, timeoutMs = 15_000) =>
  until(
    async () => {
      const row = await delivery(id);
      return row.status !== "pending" && row;
    },
    timeoutMs,
    `delivery ${id} finishing`,
  );

describe("the webhook worker", () => {
  beforeEach(() => {
    receiver.answer((_, res) => res.writeHead(204).end());
  });

  it("retries a receiver that fails twice and delivers on the third attempt, the same signed bytes every time", async () => {
    receiver.answer((_, res, i) => res.writeHead(i < 2 ? 500 : 200).end(i < 2 ? "not yet" : "ok"));
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/hooks/giftkey`);
    startWorker(t.db);

    const row = await finished(paid.deliveryId);
    expect(row).toMatchObject({ status: "delivered", attemptCount: 3, lockedUntil: null, body: paid.body });
    expect(row.finishedAt).toBeInstanceOf(Date);
    const recorded = await attempts(paid.deliveryId);
    expect(recorded.map((a) => [a.attempt, a.responseStatus, a.error])).toEqual([
      [1, 500, null],
      [2, 500, null],
      [3, 200, null],
    ]);
    for (const a of recorded) expect(a.durationMs).toBeGreaterThanOrEqual(0);

    const requests = receiver.requests;
    expect(requests).toHaveLength(3);
    // The schedule's delays (100 ms, then 200 ms) separate the attempts.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(90);
    expect(requests[2]!.at - requests[1]!.at).toBeGreaterThanOrEqual(190);
    const secret = await getOrCreateWebhookSecret(t.db, paid.userId);
    for (const req of requests) {
      expect(req.url).toBe("/hooks/giftkey");
      expect(req.body).toBe(paid.body);
      expect(req.headers["webhook-id"]).toBe(webhookMessageId(paid.deliveryId));
      expect(() => verifyWebhook(secret, req.headers, req.body)).not.toThrow();
    }
    expect(JSON.parse(requests[0]!.body)).toMatchObject({ type: "intent.paid", data: { id: paid.intentId, status: "paid" } });
  });

  it("stops at a 410 and sends nothing more", async () => {
    receiver.answer((_, res) => res.writeHead(410).end());
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/gone`);
    startWorker(t.db);
    expect(await finished(paid.deliveryId)).toMatchObject({ status: "stopped", attemptCount: 1 });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests).toHaveLength(1);
    expect((await attempts(paid.deliveryId)).map((a) => a.responseStatus)).toEqual([410]);
  });

  it("fails a delivery once the attempt after the last delay fails too", async () => {
    receiver.answer((_, res) => res.writeHead(503).end());
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/down`);
    startWorker(t.db);
    expect(await finished(paid.deliveryId)).toMatchObject({ status: "failed", attemptCount: 4 });
    expect((await attempts(paid.deliveryId)).map((a) => a.responseStatus)).toEqual([503, 503, 503, 503]);
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.requests).toHaveLength(4);
  });

  it("records a timeout without a status and delivers on the retry", async () => {
    receiver.answer((_, res, i) => (i === 0 ? undefined : res.writeHead(200).end()));
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/slow`);
    startWorker(t.db, config({ timeoutMs: 300 }));
    expect(await finished(paid.deliveryId)).toMatchObject({ status: "delivered", attemptCount: 2 });
    expect((await attempts(paid.deliveryId)).map((a) => [a.responseStatus, a.error])).toEqual([
      [null, "no answer within 300 ms"],
      [200, null],
    ]);
  });

  it("never reaches a loopback receiver unless the host is allowed, and records why", async () => {
    const paid = await payIntentWithCallback(t.db, `https://127.0.0.1:${receiver.port}/hook`);
    startWorker(t.db, config({ allowHosts: new Set(), retryDelaysMs: [50] }));
    expect(await finished(paid.deliveryId)).toMatchObject({ status: "failed", attemptCount: 2 });
    const why = "the callback host 127.0.0.1 is not a public address, which callbacks may not reach";
    expect((await attempts(paid.deliveryId)).map((a) => [a.responseStatus, a.error])).toEqual([
      [null, why],
      [null, why],
    ]);
    expect(receiver.requests).toHaveLength(0);
  });

  it("fails at once a URL that can never be sent to (plain http to a host not allowed)", async () => {
    const paid = await payIntentWithCallback(t.db, `http://localhost:${receiver.port}/hook`);
    startWorker(t.db, config({ allowHosts: new Set(["127.0.0.1"]) }));
    expect(await finished(paid.deliveryId)).toMatchObject({ status: "failed", attemptCount: 1 });
    expect((await attempts(paid.deliveryId))[0]!.error).toBe(
      `callbacks are sent over https only (http:// only to hosts allowed for development), not to http://localhost:${receiver.port}`,
    );
  });

  it("on stop, claims nothing new but finishes and records the attempt in flight", async () => {
    let answered = 0;
    receiver.answer((_, res) => setTimeout(() => ((answered = Date.now()), res.writeHead(200).end()), 400));
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/in-flight`);
    const runner = startWorker(t.db);
    await receiver.waitForRequests(1);
    const stopping = runner.stop();
    // Due while the worker drains: it must stay for the next worker, not be claimed now.
    const later = await payIntentWithCallback(t.db, `${receiver.url}/later`);
    await stopping;
    expect(answered).toBeGreaterThan(0);
    expect(await delivery(paid.deliveryId)).toMatchObject({ status: "delivered", attemptCount: 1, lockedUntil: null });
    expect(await delivery(later.deliveryId)).toMatchObject({ status: "pending", attemptCount: 0, lockedUntil: null });
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.requests.map((r) => r.url)).toEqual(["/in-flight"]);
  });
});

describe("several instances on one database", () => {
  let other: { pool: ReturnType<typeof createPool>; db: Database };
  beforeAll(() => {
    const pool = createPool(t.url, 10);
    other = { pool, db: createDb(pool) };
  });
  afterAll(() => other.pool.end());

  it("claim disjoint rows, and a leased row is nobody else's", async () => {
    const paid = await Promise.all(Array.from({ length: 30 }, () => payIntentWithCallback(t.db, `${receiver.url}/claims`)));
    const [a, b] = await Promise.all([claimDueDeliveries(t.db, 20, 60_000), claimDueDeliveries(other.db, 20, 60_000)]);
    const ids = [...a!, ...b!].map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(paid.map((p) => p.deliveryId).sort());
    expect(await claimDueDeliveries(t.db, 100, 60_000)).toEqual([]);
  });

  it("two workers running at once send each of 40 callbacks exactly once", async () => {
    receiver.answer((_, res) => setTimeout(() => res.writeHead(200).end(), Math.random() * 30));
    const paid = await Promise.all(Array.from({ length: 40 }, () => payIntentWithCallback(t.db, `${receiver.url}/race`)));
    startWorker(t.db, config(), 5);
    startWorker(other.db, config(), 5);
    for (const p of paid) await finished(p.deliveryId);
    const sent = receiver.requests.map((r) => r.headers["webhook-id"]);
    expect(sent).toHaveLength(40);
    expect(new Set(sent)).toEqual(new Set(paid.map((p) => webhookMessageId(p.deliveryId))));
    const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_attempts a
      JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.url LIKE '%/race' AND a.attempt = 1 AND a.response_status = 200`);
    expect(rows[0]!.n).toBe(40);
  });

  it("a worker whose lease ran out does not overwrite the attempt of the one that took over", async () => {
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/lease`);
    const [first] = await claimDueDeliveries(t.db, 1, 60_000);
    // The first instance stalls past its lease (or died); the row is due again for the other.
    await t.db.execute(sql`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE id = ${paid.deliveryId}`);
    const [second] = await claimDueDeliveries(other.db, 1, 60_000);
    expect(second!.id).toBe(paid.deliveryId);
    expect(await attemptDelivery(other.db, second!, config())).toBe("delivered");
    expect(await attemptDelivery(t.db, first!, config())).toBe("lost-lease");
    expect((await attempts(paid.deliveryId)).map((a) => a.attempt)).toEqual([1]);
    expect(await delivery(paid.deliveryId)).toMatchObject({ status: "delivered", attemptCount: 1 });
  });
});

describe("the receiver the API guide shows", () => {
  let child: ChildProcess | undefined;
  let dir: string;
  afterEach(() => {
    child?.kill("SIGKILL");
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function startGuideReceiver(secret: string): Promise<string> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-guide-receiver-"));
    const file = path.join(dir, "receiver.mjs");
    const port = await freeLoopbackPort();
    fs.writeFileSync(
      file,
      `${RECEIVER_VERIFY_SOURCE}\n${RECEIVER_SERVER_SOURCE.replace(".listen(8080)", `.listen(${port}, "127.0.0.1")`)}`,
    );
    child = spawn(process.execPath, [file], { env: { ...process.env, GIFTKEY_WEBHOOK_SECRET: secret }, stdio: "ignore" });
    const url = `http://127.0.0.1:${port}`;
    await until(
      () =>
        fetch(url, { method: "POST" }).then(
          (r) => r.status === 401,
          () => false,
        ),
      10_000,
      "the guide's receiver listening",
    );
    return url;
  }

  it("accepts the worker's callback with the owner's secret (204) and refuses it with another (401)", async () => {
    const owner = "guide-receiver@example.com";
    const probe = await payIntentWithCallback(t.db, "https://unused.example/", owner);
    await t.db.execute(sql`UPDATE webhook_deliveries SET status = 'stopped' WHERE id = ${probe.deliveryId}`);
    const secret = await getOrCreateWebhookSecret(t.db, probe.userId);

    const url = await startGuideReceiver(secret);
    const good = await payIntentWithCallback(t.db, `${url}/callbacks`, owner);
    startWorker(t.db);
    expect(await finished(good.deliveryId)).toMatchObject({ status: "delivered", attemptCount: 1 });
    expect((await attempts(good.deliveryId)).map((a) => a.responseStatus)).toEqual([204]);
    await Promise.all(runners.splice(0).map((r) => r.stop()));

    child!.kill("SIGKILL");
    const wrongUrl = await startGuideReceiver(`whsec_${Buffer.alloc(32, 1).toString("base64")}`);
    const bad = await payIntentWithCallback(t.db, `${wrongUrl}/callbacks`, owner);
    startWorker(t.db, config({ retryDelaysMs: [] }));
    expect(await finished(bad.deliveryId)).toMatchObject({ status: "failed", attemptCount: 1 });
    expect((await attempts(bad.deliveryId)).map((a) => a.responseStatus)).toEqual([401]);
  });
});
