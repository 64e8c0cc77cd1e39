import { beforeEach, describe, expect, it, vi } from "vitest";

const env = vi.hoisted(() => ({ PUBLIC_BASE_URL: undefined as string | undefined, TRUST_PROXY: 0, PORT: 3000 }));
vi.mock("@/lib/env", () => ({ env }));

const { originFromHeaders } = await import("./public-origin");
const origin = (headers: Record<string, string>) => originFromHeaders(new Headers(headers));

describe("originFromHeaders", () => {
  beforeEach(() => {
    Object.assign(env, { PUBLIC_BASE_URL: undefined, TRUST_PROXY: 0, PORT: 3000 });
  });

  it("is PUBLIC_BASE_URL whatever the request says", () => {
    env.PUBLIC_BASE_URL = "https://shop.example.com/";
    expect(origin({ host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" })).toBe(
      "https://shop.example.com",
    );
  });

  it.each([
    [{ host: "evil.example" }, "http://localhost:3000"],
    [{ host: "127.0.0.1:4000", "x-forwarded-host": "evil.example" }, "http://127.0.0.1:4000"],
    [{ host: "localhost:3000", "x-forwarded-proto": "https" }, "http://localhost:3000"],
    [{ host: "[::1]:3000" }, "http://[::1]:3000"],
    [{ host: "localhost.evil.example" }, "http://localhost:3000"],
    [{}, "http://localhost:3000"],
  ])("with clients connecting directly, %j -> %s", (headers, expected) => {
    expect(origin(headers)).toBe(expected);
  });

  it.each([
    [{ host: "10.0.0.5:3000", "x-forwarded-host": "shop.example.com", "x-forwarded-proto": "https" }, "https://shop.example.com"],
    [{ host: "shop.example.com" }, "http://shop.example.com"],
    [{ host: "x", "x-forwarded-host": "bad host/<script>" }, "http://localhost:3000"],
  ])("behind a trusted proxy, %j -> %s", (headers, expected) => {
    env.TRUST_PROXY = 1;
    expect(origin(headers)).toBe(expected);
  });
});
