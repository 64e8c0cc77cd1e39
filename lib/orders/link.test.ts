import { describe, expect, it } from "vitest";
import { orderLinkPath, orderLinkToken, orderLinkUrl, verifyOrderLinkToken } from "./link";

const id = "0b9f6f7e-3c1a-4d2b-9e8f-1a2b3c4d5e6f";
const other = "0b9f6f7e-3c1a-4d2b-9e8f-1a2b3c4d5e70";

describe("order links", () => {
  it("carry a MAC of the intent id that only that id verifies", () => {
    const t = orderLinkToken(id);
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyOrderLinkToken(id, t)).toBe(true);
    expect(verifyOrderLinkToken(id.toUpperCase(), t)).toBe(true);
    expect(verifyOrderLinkToken(other, t)).toBe(false);
  });

  it("refuse altered, truncated, missing and non-ASCII tokens", () => {
    const t = orderLinkToken(id);
    const flipped = (t[0] === "A" ? "B" : "A") + t.slice(1);
    for (const bad of [flipped, t.slice(0, 42), `${t}A`, "", null, undefined, "й".repeat(43)]) {
      expect(verifyOrderLinkToken(id, bad)).toBe(false);
    }
  });

  it("are absolute with the given origin", () => {
    expect(orderLinkPath(id)).toBe(`/orders/${id}?t=${orderLinkToken(id)}`);
    expect(orderLinkUrl("https://store.example.com/", id)).toBe(`https://store.example.com/orders/${id}?t=${orderLinkToken(id)}`);
  });
});
