import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/lib/db/schema";
import { createLogger } from "@/lib/log";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.close());

function captured() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { output: () => chunks.join(""), logger: createLogger(stream, "debug") };
}

async function failure(query: Promise<unknown>): Promise<unknown> {
  try {
    await query;
  } catch (err) {
    return err;
  }
  throw new Error("the query was expected to fail");
}

describe("a failed query in the log", () => {
  it("names the SQL and the constraint, never the buyer's e-mail it was given or PostgreSQL quoted back", async () => {
    const email = "Private.Buyer@example.com";
    await t.db.insert(users).values({ email });
    const duplicate = await failure(t.db.insert(users).values({ email, name: "https://s.team/p/fhgc-rdqr/NQVGTQPG" }));
    const badCast = await failure(t.db.select().from(users).where(eq(users.id, email)));

    const { output, logger } = captured();
    logger.error({ err: duplicate, requestId: "r1" }, "unhandled error");
    logger.error({ err: badCast, requestId: "r2" }, "unhandled error");
    logger.error({ error: String(duplicate) }, "next-auth error");
    const text = output();

    expect(text).toContain('insert into \\"users\\"');
    expect(text).toContain("users_email_key");
    expect(text).toContain("params: [redacted]");
    expect(text.toLowerCase()).not.toContain("private.buyer");
    expect(text).not.toContain("NQVGTQPG");
  });
});
