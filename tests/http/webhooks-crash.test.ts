import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { getOrCreateWebhookSecret } from "@/lib/services/webhook-secrets";
import { verifyWebhook, webhookMessageId } from "@/lib/webhooks/signature";
import { startNextProcess, type NextProcess } from "@/scripts/lib/processes";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { payIntentWithCallback, until } from "@/tests/support/paid-intent";
import { startReceiver, type Receiver } from "@/tests/support/receiver";

// The real server, its worker started by instrumentation.ts, against its own database.
let t: TestDatabase;
let receiver: Receiver;
const servers: NextProcess[] = [];

const workerEnv = () => ({
  DATABASE_URL: t.url,
  WORKER_ENABLED: "1",
  WORKER_POLL_MS: "100",
  WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
  // A 1 s timeout makes the lease 7 s: how long a dead instance's claim keeps the row.
  WEBHOOK_TIMEOUT_MS: "1000",
  WEBHOOK_RETRY_SCHEDULE: "200ms,200ms",
});

beforeAll(async () => {
  t = await createTestDatabase();
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.child.kill("SIGKILL");
    await s.exited;
  }
  receiver.requests.length = 0;
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const deliveryRow = async (id: string) => (await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
const attemptRows = (id: string) =>
  t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(webhookAttempts.attempt);

describe("callbacks across a crash of the server", () => {
  it("are still delivered, exactly as recorded, after SIGKILL in the middle of an attempt and a restart", async () => {
    // The first attempt never gets an answer: the server is killed while it waits.
    receiver.answer((_, res, i) => (i === 0 ? undefined : res.writeHead(200).end()));
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/paid`);

    const first = await startNextProcess("webhooks-crash-1", workerEnv());
    servers.push(first);
    await receiver.waitForRequests(1);
    first.child.kill("SIGKILL");
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });

    // Nothing about the cut attempt was recorded; the dead instance's lease still holds the row.
    const afterCrash = await deliveryRow(paid.deliveryId);
    expect(afterCrash).toMatchObject({ status: "pending", attemptCount: 0, body: paid.body });
    expect(afterCrash.lockedUntil).toBeInstanceOf(Date);
    expect(await attemptRows(paid.deliveryId)).toEqual([]);

    servers.push(await startNextProcess("webhooks-crash-2", workerEnv()));
    const delivered = await until(
      async () => {
        const row = await deliveryRow(paid.deliveryId);
        return row.status === "delivered" && row;
      },
      30_000,
      "delivery after the restart",
    );
    expect(delivered).toMatchObject({ attemptCount: 1, lockedUntil: null, body: paid.body });
    expect((await attemptRows(paid.deliveryId)).map((a) => [a.attempt, a.responseStatus, a.error])).toEqual([[1, 200, null]]);

    // Both sends carry the recorded body and id, validly signed with the owner's secret.
    const secret = await getOrCreateWebhookSecret(t.db, paid.userId);
    expect(receiver.requests).toHaveLength(2);
    for (const req of receiver.requests) {
      expect(req.body).toBe(paid.body);
      expect(req.headers["webhook-id"]).toBe(webhookMessageId(paid.deliveryId));
      expect(() => verifyWebhook(secret, req.headers, req.body)).not.toThrow();
    }
    expect(JSON.parse(receiver.requests[1]!.body)).toMatchObject({ type: "intent.paid", data: { id: paid.intentId, status: "paid" } });
  });

  it("SIGTERM lets the attempt in flight finish and records it before the server exits", async () => {
    let answeredAt = 0;
    receiver.answer((_, res) =>
      setTimeout(() => {
        answeredAt = Date.now();
        res.writeHead(200).end();
      }, 700),
    );
    const server = await startNextProcess("webhooks-sigterm", workerEnv());
    servers.push(server);
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/graceful`);
    await receiver.waitForRequests(1);
    server.child.kill("SIGTERM");
    const exit = await server.exited;
    expect(answeredAt).toBeGreaterThan(0);
    expect(exit.at).toBeGreaterThanOrEqual(answeredAt);
    expect(exit.code).toBe(143);
    expect(await deliveryRow(paid.deliveryId)).toMatchObject({ status: "delivered", attemptCount: 1, lockedUntil: null });
    expect((await attemptRows(paid.deliveryId)).map((a) => a.responseStatus)).toEqual([200]);
  });

  it("a server with WORKER_ENABLED=0 sends nothing", async () => {
    const server = await startNextProcess("webhooks-worker-off", { ...workerEnv(), WORKER_ENABLED: "0" });
    servers.push(server);
    const paid = await payIntentWithCallback(t.db, `${receiver.url}/off`);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.requests).toHaveLength(0);
    expect(await deliveryRow(paid.deliveryId)).toMatchObject({ status: "pending", attemptCount: 0, lockedUntil: null });
  });
});
