import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, scrubText } from "./log";

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

describe("log redaction", () => {
  it("keeps a token's display prefix only", () => {
    expect(scrubText(`Bearer ${TOKEN} rejected`)).toBe("Bearer gk_live_AbCd…[redacted] rejected");
  });

  it("redacts secret keys at any depth and tokens inside any string", () => {
    const { lines, logger } = captured();
    logger.info(
      { req: { headers: { Authorization: `Bearer ${TOKEN}`, cookie: "next-auth.session-token=abc", accept: "*/*" } }, user: { password: "hunter22" }, url: `/x?t=${TOKEN}` },
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

  it("honours the level", () => {
    const { lines, logger } = captured();
    logger.level = "warn";
    logger.info("quiet");
    logger.warn("loud");
    expect(lines.map((l) => l.msg)).toEqual(["loud"]);
  });
});
