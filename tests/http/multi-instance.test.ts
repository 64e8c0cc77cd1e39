import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNextProcess, type NextProcess } from "@/scripts/lib/processes";
import { partnerToken } from "@/tests/support/partners";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { startNginx, type Nginx } from "@/tests/support/nginx";
import { payIntentWithCallback, until } from "@/tests/support/paid-intent";
import { startReceiver, type Receiver } from "@/tests/support/receiver";

// Two instances of the real server on one database, behind Debian's nginx running
// deploy/nginx/giftkey.conf: what "stateless, any number of instances" has to hold up to.
let t: TestDatabase;
let a: NextProcess;
let b: NextProcess;
let nginx: Nginx;
let receiver: Receiver;
let token: string;

const ACCOUNT = "76561198000000001";
const GIFT = {
  item: "620",
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "gamer@example.com",
  fee: "excluded",
};
/** Attempts one instance's callback worker sends at once (webhookDeliveryJob's default concurrency). */
const SLOTS_PER_INSTANCE = 10;

/** Instances of one deployment share their session secret. */
const AUTH_SECRET = crypto.randomBytes(32).toString("base64url");
const instanceEnv = () => ({
  DATABASE_URL: t.url,
  AUTH_SECRET,
  // nginx appends the client's address to X-Forwarded-For; the per-address limits use it.
  TRUST_PROXY: "1",
  // The load here is far above one token's per-minute allowance (counted across instances).
  RATE_LIMIT_PER_TOKEN: "1000000",
  RATE_LIMIT_PER_IP: "1000000",
  WORKER_POLL_MS: "100",
  WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
  WEBHOOK_TIMEOUT_MS: "5000",
  WEBHOOK_RETRY_SCHEDULE: "200ms,200ms",
});
const hostOf = (p: NextProcess) => new URL(p.baseUrl).host;

beforeAll(async () => {
  t = await createTestDatabase();
  receiver = await startReceiver();
  // A partner's integration: the races below hold far more than a shopper may (lib/services/holds.ts).
  token = (
    await partnerToken(t.db, "multi-instance@example.com", {
      name: "multi-instance",
      scopes: ["catalog:read", "gifts:verify", "gear:create"],
    })
  ).token;
  [a, b] = await Promise.all([startNextProcess("multi-instance-a", instanceEnv()), startNextProcess("multi-instance-b", instanceEnv())]);
  nginx = await startNginx("multi-instance", [hostOf(a), hostOf(b)]);
});

afterAll(async () => {
  await nginx?.stop();
  for (const p of [a, b]) {
    if (p && p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill("SIGKILL");
      await p.exited;
    }
  }
  await receiver?.close();
  await t?.close();
});

const post = (path: string, body: unknown) =>
  fetch(nginx.url + path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe.sequential("two instances on one database behind nginx", () => {
  it("sell exactly the stock when 320 gear requests race across both", async () => {
    const STOCK = 40;
    const REQUESTS = 320;
    await t.db.execute(
      sql`INSERT INTO gear_items (platform_app_id, item, title, price, stock) VALUES (730, 'race-crate', 'Race Crate', 9900, ${STOCK})`,
    );
    const from = nginx.accessLog().length;

    const results = await Promise.all(
      Array.from({ length: REQUESTS }, async () => {
        const res = await post("/api/v1/gear", { account: ACCOUNT, platform: "730", item: "race-crate", email: "gamer@example.com" });
        return { status: res.status, body: (await res.json()) as { intentId?: string; message?: string } };
      }),
    );

    const won = results.filter((r) => r.status === 201);
    const lost = results.filter((r) => r.status === 409);
    expect(won).toHaveLength(STOCK);
    expect(lost).toHaveLength(REQUESTS - STOCK);
    expect(new Set(lost.map((r) => r.body.message))).toEqual(new Set(["item race-crate is out of stock"]));

    const { rows } = await t.pool.query<{ id: string }>(
      `SELECT i.id FROM intents i JOIN gear_items g ON g.id = i.gear_item_id
       WHERE g.item = 'race-crate' AND i.status = 'requires_payment' AND i.expires_at > now()`,
    );
    expect(rows.map((r) => r.id).sort()).toEqual(won.map((r) => r.body.intentId).sort());

    // Both instances took part in the race (which one's requests commit first is up to timing).
    const served = nginx
      .accessLog()
      .slice(from)
      .filter((e) => e.uri === "/api/v1/gear");
    expect(served).toHaveLength(REQUESTS);
    for (const instance of [hostOf(a), hostOf(b)]) {
      expect(served.filter((e) => e.upstreams.at(-1) === instance).length).toBeGreaterThan(REQUESTS / 10);
    }
    const sold = (instance: string) => served.filter((e) => e.status === 201 && e.upstreams.at(-1) === instance).length;
    console.log(
      `gear race: ${REQUESTS} requests, ${STOCK} sold (${sold(hostOf(a))} by one instance, ${sold(hostOf(b))} by the other), ${REQUESTS - STOCK} refused.`,
    );
  });

  it("deliver each callback once while both instances' workers claim them", async () => {
    const CALLBACKS = 30;
    // Held answers keep every claimed attempt in flight: more in flight at once than one instance has
    // slots proves both were sending; each is released once both have filled their slots.
    const held: (() => void)[] = [];
    let mostInFlight = 0;
    let releasing = false;
    receiver.answer((_, res) => {
      const answer = () => res.writeHead(204).end();
      if (releasing) return answer();
      held.push(answer);
      mostInFlight = Math.max(mostInFlight, held.length);
      if (held.length >= 2 * SLOTS_PER_INSTANCE) release();
    });
    const release = () => {
      releasing = true;
      held.splice(0).forEach((answer) => answer());
    };
    const fallback = setTimeout(release, 4_000);

    const paid = [];
    for (let i = 0; i < CALLBACKS; i++) paid.push(await payIntentWithCallback(t.db, `${receiver.url}/paid`, "callbacks@example.com"));
    await receiver.waitForRequests(CALLBACKS, 20_000);
    clearTimeout(fallback);
    await until(
      async () => {
        const { rows } = await t.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'");
        return rows[0]!.n === CALLBACKS;
      },
      10_000,
      "every delivery recorded as delivered",
    );
    // A little longer: a duplicate would come from a second claim of a delivered row.
    await new Promise((r) => setTimeout(r, 500));

    expect(mostInFlight).toBe(2 * SLOTS_PER_INSTANCE);
    const ids = receiver.requests.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(CALLBACKS);
    expect(new Set(ids).size).toBe(CALLBACKS);
    const { rows } = await t.pool.query<{ attempts: number; n: number }>(
      "SELECT attempt_count AS attempts, count(*)::int AS n FROM webhook_deliveries GROUP BY attempt_count",
    );
    expect(rows).toEqual([{ attempts: 1, n: CALLBACKS }]);
    expect(new Set(receiver.requests.map((r) => JSON.parse(r.body).data.id))).toEqual(new Set(paid.map((p) => p.intentId)));
  });

  it("lose no committed intent when one instance is SIGKILLed mid-load, and keep answering through the other", async () => {
    const CLIENTS = 8;
    // nginx takes a moment to see the dead instance's idle connections close.
    const noticeMs = 100;
    // The kill comes once both instances are answering, the stream goes on well past it; the
    // machine's speed decides how long that takes, within a cap.
    const servedBoth = () => {
      const answered = new Set(
        nginx
          .accessLog()
          .filter((e) => e.uri === "/api/v1/gifts/verify" && e.status === 201)
          .map((e) => e.upstreams.at(-1)),
      );
      return answered.has(hostOf(a)) && answered.has(hostOf(b));
    };
    type Outcome = { start: number; end: number; status: number | "network error"; intentId?: string; error?: string };
    const outcomes: Outcome[] = [];
    const capAt = Date.now() + 30_000;
    // Sent, and seen to have taken effect: on a busy machine a SIGKILLed process can take a while to go.
    let killedAt = Infinity;
    let diedAt = Infinity;
    const enoughAfterKill = () => Date.now() - diedAt > 2_000 && outcomes.filter((o) => o.start > diedAt + noticeMs).length >= 4 * CLIENTS;

    const client = async () => {
      while (!enoughAfterKill() && Date.now() < capAt) {
        const start = Date.now();
        try {
          const res = await post("/api/v1/gifts/verify", GIFT);
          // nginx's own 502 page is HTML; the app always answers JSON.
          const text = await res.text();
          const intentId = res.status === 201 ? (JSON.parse(text) as { intentId: string }).intentId : undefined;
          outcomes.push({ start, end: Date.now(), status: res.status, intentId });
        } catch (err) {
          const cause = (err as { cause?: { code?: string; message?: string } }).cause;
          outcomes.push({ start, end: Date.now(), status: "network error", error: cause?.code ?? cause?.message ?? String(err) });
        }
      }
    };
    const killer = (async () => {
      await until(
        async () => outcomes.filter((o) => o.status === 201).length >= 4 * CLIENTS && servedBoth(),
        20_000,
        "both instances answering",
      );
      killedAt = Date.now();
      a.child.kill("SIGKILL");
      diedAt = (await a.exited).at;
    })();
    await Promise.all([...Array.from({ length: CLIENTS }, client), killer]);
    expect(await a.exited).toMatchObject({ signal: "SIGKILL" });

    // Every 201 the clients saw is an intent committed in the database.
    const created = outcomes.filter((o) => o.status === 201).map((o) => o.intentId!);
    const { rows } = await t.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM intents WHERE id = ANY($1::uuid[])", [created]);
    expect(rows[0]!.n).toBe(created.length);

    // Only requests in flight at the kill may fail: nginx answers 502 for a POST the dead instance
    // had received (it never re-sends those), or, when the answer was already on its way, closes the
    // connection. Requests begun later all succeed.
    const failed = outcomes.filter((o) => o.status !== 201);
    for (const o of failed) {
      const what = JSON.stringify({ ...o, killedAt, diedAt });
      expect(o.status === 502 || (o.status === "network error" && o.error === "UND_ERR_SOCKET"), what).toBe(true);
      expect(o.start, what).toBeLessThanOrEqual(diedAt + noticeMs);
      expect(o.end, what).toBeGreaterThanOrEqual(killedAt);
    }
    expect(failed.length).toBeLessThanOrEqual(CLIENTS);
    // A failed request may still have committed before the instance died (the reason a client
    // retries a POST with an Idempotency-Key), but nothing else is in the database.
    const { rows: all } = await t.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM intents WHERE kind = 'gift'");
    const committedUnanswered = all[0]!.n - created.length;
    expect(committedUnanswered).toBeGreaterThanOrEqual(0);
    expect(committedUnanswered).toBeLessThanOrEqual(failed.length);
    const before = outcomes.filter((o) => o.end < killedAt);
    const after = outcomes.filter((o) => o.start > diedAt + noticeMs);
    expect(before.length).toBeGreaterThan(CLIENTS);
    expect(after.length).toBeGreaterThan(CLIENTS);
    expect(after.filter((o) => o.status !== 201)).toEqual([]);

    // Reads retried by nginx on the survivor: every one answers.
    const reads = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${nginx.url}/api/v1/gifts/catalog?limit=5`, { headers: { authorization: `Bearer ${token}` } }),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(b.child.exitCode).toBeNull();

    // Before the kill both instances answered; after it only the survivor did.
    const log = nginx.accessLog().filter((e) => e.uri === "/api/v1/gifts/verify");
    expect(log.some((e) => e.at < killedAt && e.upstreams.at(-1) === hostOf(a))).toBe(true);
    const lateFromDead = log.filter((e) => e.at > diedAt + noticeMs && e.status === 201 && e.upstreams.at(-1) !== hostOf(b));
    expect(lateFromDead).toEqual([]);
    console.log(
      `SIGKILL mid-load: ${outcomes.length} verify requests, ${created.length} answered 201 (all committed), ` +
        `${failed.length} in flight at the kill failed (${[...new Set(failed.map((o) => o.status))].join(", ") || "-"}) ` +
        `(${committedUnanswered} of them committed), ${after.length} begun after it all 201.`,
    );
  });
});
