import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { bufferedDestination, createLogger, createRequestLogger, logRequestLine, scrubText } from "./log";

function captured() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger(stream, "debug") };
}

const TOKEN = "gk_live_AbCd" + "x".repeat(39);

describe("the request line", () => {
  it("scrubs every field a client could have put text into, and keeps the server's own as they are, line after line", () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    // Twice: the second line's strings come from the memo of scrubbed short strings.
    const logger = createRequestLogger(stream, "debug");
    for (let i = 0; i < 2; i++)
      logRequestLine(
        logger,
        "info",
        {
          // Checked before it gets here (requestIdOf refuses an id carrying a token): kept as it is.
          requestId: "trace-7.a_b",
          method: "GET",
          route: "/api/v1/people/someone@example.com",
          status: 404,
          ms: 1.5,
          ip: "203.0.113.7",
          tokenId: "3f1c2b9e-6a5d-4c1e-9a7b-2d8e4f6a1b3c",
          tokenName: `shop of buyer@example.com ${TOKEN}`,
          reason: "not_found",
          extra: { email: "x@example.com", note: `see ${TOKEN}` },
        },
        "request",
      );
    const scrubbed = expect.objectContaining({
      level: "info",
      msg: "request",
      requestId: "trace-7.a_b",
      method: "GET",
      route: "/api/v1/people/[email]",
      status: 404,
      ms: 1.5,
      ip: "203.0.113.7",
      tokenId: "3f1c2b9e-6a5d-4c1e-9a7b-2d8e4f6a1b3c",
      tokenName: "shop of [email] gk_live_AbCd…[redacted]",
      reason: "not_found",
      extra: { email: "[redacted]", note: "see gk_live_AbCd…[redacted]" },
    });
    expect(lines).toEqual([scrubbed, scrubbed]);
  });

  it("writes nothing below its level", () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    logRequestLine(
      createRequestLogger(stream, "info"),
      "debug",
      { requestId: "r", method: "GET", route: "/", status: 200, ms: 1 },
      "request",
    );
    expect(lines).toEqual([]);
  });
});

describe("log redaction", () => {
  it("keeps a token's display prefix only", () => {
    expect(scrubText(`Bearer ${TOKEN} rejected`)).toBe("Bearer gk_live_AbCd…[redacted] rejected");
  });

  it("redacts secret keys at any depth and tokens inside any string", () => {
    const { lines, logger } = captured();
    logger.info(
      {
        req: { headers: { Authorization: `Bearer ${TOKEN}`, cookie: "next-auth.session-token=abc", accept: "*/*" } },
        user: { password: "hunter22" },
        url: `/x?t=${TOKEN}`,
      },
      `request with ${TOKEN}`,
    );
    const [line] = lines;
    expect(line).toMatchObject({
      level: "info",
      msg: "request with gk_live_AbCd…[redacted]",
      req: { headers: { Authorization: "[redacted]", cookie: "[redacted]", accept: "*/*" } },
      user: { password: "[redacted]" },
      url: "/x?t=gk_live_AbCd…[redacted]",
    });
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    expect(JSON.stringify(lines)).not.toContain("hunter22");
  });

  it("writes errors with their stack, scrubbed", () => {
    const { lines, logger } = captured();
    logger.error({ err: new Error(`lookup of ${TOKEN} failed`) }, "boom");
    const err = lines[0]?.err as { message: string; stack: string; type: string };
    expect(err.type).toBe("Error");
    expect(err.message).toBe("lookup of gk_live_AbCd…[redacted] failed");
    expect(err.stack).toContain("log.test.ts");
    expect(err.stack).not.toContain(TOKEN);
  });

  it("logs a failed query's SQL but not its params, nor the values PostgreSQL quotes back", () => {
    const { lines, logger } = captured();
    const invite = "https://s.team/p/fhgc-rdqr/NQVGTQPG";
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: "23505",
      detail: "Key (lower(email))=(buyer@example.com) already exists.",
      constraint: "users_email_key",
    });
    const err = new DrizzleQueryError('insert into "intents" ("email", "target") values ($1, $2)', ["buyer@example.com", invite], cause);
    logger.error({ err }, "unhandled error");
    // The same text copied into a plain message, as next-auth's logger and `String(err)` do.
    logger.error({ error: err.message }, `wrapped: ${err.message}`);
    logger.error({ err: new Error('invalid input syntax for type uuid: "buyer@example.com"') }, "bad cast");
    const out = JSON.stringify(lines);
    expect(out).toContain('insert into \\"intents\\" (\\"email\\", \\"target\\") values ($1, $2)');
    expect(out).toContain("users_email_key");
    expect(out).not.toContain("buyer@example.com");
    expect(out).not.toContain("NQVGTQPG");
    expect((lines[0]?.err as { message: string }).message).toBe(
      'Failed query: insert into "intents" ("email", "target") values ($1, $2)\nparams: [redacted]',
    );
  });

  it("cuts e-mail addresses and gift invite links out of any text", () => {
    expect(scrubText("sent to Buyer.Name+x@mail.example.ru for https://s.team/p/fhgc-rdqr/NQVGTQPG ok")).toBe(
      "sent to [email] for https://s.team/p/[redacted] ok",
    );
  });

  it("honours the level", () => {
    const { lines, logger } = captured();
    logger.level = "warn";
    logger.info("quiet");
    logger.warn("loud");
    expect(lines.map((l) => l.msg)).toEqual(["loud"]);
  });
});

describe("the process's log destination", () => {
  it("shows a few lines within about 100 ms, and writes thousands in blocks, every line whole in UTF-8", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-log-"));
    const file = path.join(dir, "out.log");
    const destination = bufferedDestination(fs.openSync(file, "w"));
    try {
      const logger = createLogger(destination, "info");
      const read = () =>
        fs
          .readFileSync(file, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { msg: string; n: number });
      // Far under the 4 KiB a block waits for: only the periodic flush writes them.
      for (let n = 0; n < 3; n++) logger.info({ n }, "гавань 🎁");
      expect(read()).toHaveLength(0);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(read().map((line) => [line.n, line.msg])).toEqual([0, 1, 2].map((n) => [n, "гавань 🎁"]));

      for (let n = 3; n < 3000; n++) logger.info({ n }, "гавань 🎁");
      await new Promise<void>((resolve, reject) => logger.flush((err) => (err ? reject(err) : resolve())));
      const lines = read();
      expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 3000 }, (_, n) => n));
      expect(lines.every((line) => line.msg === "гавань 🎁")).toBe(true);
    } finally {
      // Ended, its timer stops with its descriptor: a flush after this would fail (EBADF), unhandled.
      await new Promise<void>((resolve) => destination.end(resolve));
      await new Promise((resolve) => setTimeout(resolve, 300));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
