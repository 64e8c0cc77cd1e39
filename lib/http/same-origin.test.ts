import { describe, expect, it } from "vitest";
import { isForeignServerAction, originHost } from "./same-origin";

describe("originHost", () => {
  it.each([
    ["https://shop.example:8443", "shop.example:8443"],
    ["http://127.0.0.1:3000", "127.0.0.1:3000"],
    [null, null],
    ["null", null],
    ["garbage", null],
    ["http://[::1", null],
    ["https://", null],
    ["file:///etc/passwd", null],
  ])("%s -> %s", (origin, host) => {
    expect(originHost(origin)).toBe(host);
  });
});

describe("isForeignServerAction", () => {
  const action = (headers: Record<string, string>, method = "POST") =>
    isForeignServerAction(new Headers({ "next-action": "7f00", ...headers }), method);

  it("lets through what Next lets through: same host, the first forwarded host, no Origin at all", () => {
    expect(action({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" })).toBe(false);
    expect(action({ origin: "https://shop.example", host: "10.0.0.5:3000", "x-forwarded-host": "shop.example, proxy.internal" })).toBe(
      false,
    );
    expect(action({ host: "127.0.0.1:3000" })).toBe(false);
  });

  it.each(["https://evil.example", "null", "garbage"])("refuses Origin: %s", (origin) => {
    expect(action({ origin, host: "127.0.0.1:3000" })).toBe(true);
  });

  it("looks only at POSTs carrying Next-Action", () => {
    expect(action({ origin: "https://evil.example", host: "127.0.0.1:3000" }, "GET")).toBe(false);
    expect(isForeignServerAction(new Headers({ origin: "https://evil.example", host: "127.0.0.1:3000" }), "POST")).toBe(false);
  });
});
