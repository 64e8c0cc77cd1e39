import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { giftVerifyRequestSchema } from "@/lib/schemas/gifts";
import { verifyGift } from "@/lib/services/gifts";
import { payIntent } from "@/lib/services/intent-lifecycle";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
import { startNextProcess, type NextProcess } from "@/scripts/lib/processes";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { until } from "@/tests/support/paid-intent";

// A paid order is delivered once, whatever happens to the server on the way: killed with SIGKILL
// mid-delivery and started again, the delivery goes on from the step it had reached.
let t: TestDatabase;
const servers: NextProcess[] = [];

const workerEnv = () => ({
  DATABASE_URL: t.url,
  WORKER_ENABLED: "1",
  WORKER_POLL_MS: "100",
  DELIVERY_PROVIDER: "sandbox",
  SANDBOX_DELIVERY_DELAY_MS: "1500",
});

beforeAll(async () => {
  t = await createTestDatabase();
});
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.child.kill("SIGKILL");
    await s.exited;
  }
});
afterAll(() => t?.close());

async function paidGiftForTheSandbox(): Promise<string> {
  const userId = await ensureUser(t.db, "crash@example.com");
  const token = await createApiToken(t.db, { userId, name: "crash", scopes: ["gifts:verify"] });
  const body = giftVerifyRequestSchema.parse({
    item: "620",
    target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
    email: "crash@example.com",
    fee: "excluded",
  });
  const { intentId } = await verifyGift(
    t.db,
    { id: token.id, userId, name: "crash", scopes: token.scopes, purpose: "api", guest: false },
    body,
    "http://store.test",
  );
  await payIntent(t.db, intentId, { provider: "sandbox", providerPaymentId: "sbx_crash", origin: "http://store.test" });
  // This process made the delivery with its own (manual) provider: hand it to the servers' sandbox bot.
  await t.db.execute(sql`UPDATE deliveries SET provider = 'sandbox', status = 'created' WHERE intent_id = ${intentId}`);
  return intentId;
}

const deliveryOf = async (intentId: string) =>
  (await t.db.execute<{ status: string; step: string }>(sql`SELECT status, step FROM deliveries WHERE intent_id = ${intentId}`)).rows[0]!;

describe("delivery across a crash of the server", () => {
  it("goes on after SIGKILL and a restart, and delivers once", async () => {
    const intentId = await paidGiftForTheSandbox();
    const first = await startNextProcess("delivery-crash-1", workerEnv());
    servers.push(first);
    await until(async () => (await deliveryOf(intentId)).step === "friend_request_sent", 30_000, "the first step");
    first.child.kill("SIGKILL");
    expect(await first.exited).toMatchObject({ signal: "SIGKILL" });
    expect(await deliveryOf(intentId)).toMatchObject({ status: "pending", step: "friend_request_sent" });

    servers.push(await startNextProcess("delivery-crash-2", workerEnv()));
    await until(async () => (await deliveryOf(intentId)).status === "delivered", 30_000, "delivery after the restart");

    const attempts = await t.db.execute<{ outcome: string; step: string }>(
      sql`SELECT a.outcome, a.step FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.intent_id = ${intentId} ORDER BY a.attempt`,
    );
    expect(attempts.rows.map((a) => `${a.outcome}:${a.step}`)).toEqual([
      "progress:friend_request_sent",
      "progress:gift_sent",
      "delivered:accepted",
    ]);
    const events = await t.db.execute<{ value: string }>(sql`SELECT value FROM intent_events WHERE intent_id = ${intentId} ORDER BY id`);
    expect(events.rows.map((e) => e.value)).toEqual([
      "requires_payment",
      "paid",
      "queued",
      "friend_request_sent",
      "gift_sent",
      "accepted",
      "fulfilled",
    ]);
    const mail = await t.db.execute<{ kind: string }>(
      sql`SELECT kind FROM mail_messages WHERE intent_id = ${intentId} ORDER BY created_at`,
    );
    expect(mail.rows.map((m) => m.kind)).toEqual(["receipt", "delivered"]);
  });
});
