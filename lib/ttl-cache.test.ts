import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache";

function counter() {
  let calls = 0;
  let release: (() => void) | undefined;
  const load =
    (gate = false) =>
    () => {
      calls += 1;
      const n = calls;
      return gate ? new Promise<number>((r) => (release = () => r(n))) : Promise.resolve(n);
    };
  return { load, calls: () => calls, release: () => release?.() };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("TtlCache", () => {
  it("serves a fresh value without loading again", async () => {
    const cache = new TtlCache<number>(1000);
    const c = counter();
    expect(await cache.get("k", c.load(), 0)).toBe(1);
    expect(await cache.get("k", c.load(), 999)).toBe(1);
    expect(c.calls()).toBe(1);
  });

  it("runs the loader once for a burst of identical misses", async () => {
    const cache = new TtlCache<number>(1000);
    const c = counter();
    const all = Promise.all([cache.get("k", c.load(true), 0), cache.get("k", c.load(true), 1), cache.get("k", c.load(true), 2)]);
    c.release();
    expect(await all).toEqual([1, 1, 1]);
    expect(c.calls()).toBe(1);
  });

  it("serves the stale value while one background load replaces it", async () => {
    const cache = new TtlCache<number>(1000);
    const c = counter();
    await cache.get("k", c.load(), 0);
    expect(await cache.get("k", c.load(true), 1500)).toBe(1);
    expect(await cache.get("k", c.load(true), 1600)).toBe(1);
    expect(c.calls()).toBe(2);
    c.release();
    await flush();
    expect(await cache.get("k", c.load(), Date.now())).toBe(2);
  });

  it("loads afresh once a value is older than twice the TTL", async () => {
    const cache = new TtlCache<number>(1000);
    const c = counter();
    await cache.get("k", c.load(), 0);
    expect(await cache.get("k", c.load(), 2000)).toBe(2);
  });

  it("does not keep a failed load", async () => {
    const cache = new TtlCache<number>(1000);
    await expect(cache.get("k", () => Promise.reject(new Error("down")), 0)).rejects.toThrow("down");
    expect(await cache.get("k", () => Promise.resolve(7), 1)).toBe(7);
  });

  it("keeps serving the stale value when a refresh fails", async () => {
    const cache = new TtlCache<number>(1000);
    await cache.get("k", () => Promise.resolve(1), 0);
    expect(await cache.get("k", () => Promise.reject(new Error("down")), 1200)).toBe(1);
    await flush();
    expect(await cache.get("k", () => Promise.resolve(3), 1300)).toBe(1);
  });

  it("evicts the oldest entry past its size bound", async () => {
    const cache = new TtlCache<number>(1000, { maxEntries: 2 });
    const c = counter();
    await cache.get("a", c.load(), 0);
    await cache.get("b", c.load(), 0);
    await cache.get("c", c.load(), 0);
    expect(await cache.get("a", c.load(), 1)).toBe(4);
  });

  it("loads every time with a TTL of 0", async () => {
    const cache = new TtlCache<number>(0);
    const c = counter();
    await cache.get("k", c.load(), 0);
    await cache.get("k", c.load(), 0);
    expect(c.calls()).toBe(2);
  });

  it("holds its values' bytes under the bound, evicting the oldest first", async () => {
    const cache = new TtlCache<string>(1000, { maxEntries: 1000, maxBytes: 1000, sizeOf: (v) => v.length });
    for (let i = 0; i < 50; i++) await cache.get(`k${i}`, () => Promise.resolve("x".repeat(100)), i);
    expect(cache.stats()).toEqual({ entries: 10, bytes: 1000 });
    expect(await cache.get("k49", () => Promise.resolve("reloaded"), 60)).toBe("x".repeat(100));
    expect(await cache.get("k0", () => Promise.resolve("reloaded"), 60)).toBe("reloaded");
  });

  it("does not keep a value larger than its whole byte bound", async () => {
    const cache = new TtlCache<string>(1000, { maxBytes: 10, sizeOf: (v) => v.length });
    expect(await cache.get("big", () => Promise.resolve("x".repeat(11)), 0)).toHaveLength(11);
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  it("drops entries past their stale time when it next stores, so idle keys do not stay", async () => {
    const cache = new TtlCache<number>(1000, { sizeOf: () => 8 });
    for (let i = 0; i < 100; i++) await cache.get(`old${i}`, () => Promise.resolve(i), 0);
    expect(cache.stats().entries).toBe(100);
    await cache.get("new", () => Promise.resolve(1), 2001);
    expect(cache.stats()).toEqual({ entries: 1, bytes: 8 });
  });

  it("says whether a key would be answered without loading", async () => {
    const cache = new TtlCache<number>(1000);
    expect(cache.has("k", 0)).toBe(false);
    const c = counter();
    const pending = cache.get("k", c.load(true), 0);
    expect(cache.has("k", 1)).toBe(true);
    c.release();
    await pending;
    expect(cache.has("k", 1999)).toBe(true);
    expect(cache.has("k", 2000)).toBe(false);
  });
});
