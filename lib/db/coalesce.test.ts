import { describe, expect, it } from "vitest";
import { Coalescer } from "./coalesce";

/** A statement that answers each item doubled, holding every batch until the test lets it go. */
function gatedRun(refuse: (item: number) => boolean = () => false) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const run = (items: number[]) => {
    batches.push(items);
    return new Promise<number[]>((resolve, reject) => {
      gates.push(() =>
        items.some(refuse) ? reject(new Error(`refused ${items.filter(refuse).join(",")}`)) : resolve(items.map((i) => i * 2)),
      );
    });
  };
  const releaseAll = async () => {
    while (gates.length > 0) {
      gates.shift()!();
      await flush();
    }
  };
  return { run, batches, release: () => gates.shift()!(), releaseAll };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("Coalescer", () => {
  it("sends a request at once and alone when nothing else is at the database", async () => {
    const s = gatedRun();
    const c = new Coalescer(s.run, { maxInFlight: 1, maxBatch: 64 });
    const one = c.submit(1);
    expect(s.batches).toEqual([[1]]);
    s.release();
    await expect(one).resolves.toBe(2);
  });

  it("gathers the requests that arrive while a batch is out, and sends them together when it is back", async () => {
    const s = gatedRun();
    const c = new Coalescer(s.run, { maxInFlight: 1, maxBatch: 64 });
    const answers = [1, 2, 3, 4].map((i) => c.submit(i));
    expect(s.batches).toEqual([[1]]);
    s.release();
    await flush();
    expect(s.batches).toEqual([[1], [2, 3, 4]]);
    s.release();
    await expect(Promise.all(answers)).resolves.toEqual([2, 4, 6, 8]);
  });

  it("keeps at most maxInFlight batches out, of at most maxBatch requests each", async () => {
    const s = gatedRun();
    const c = new Coalescer(s.run, { maxInFlight: 2, maxBatch: 3 });
    const answers = Array.from({ length: 9 }, (_, i) => c.submit(i + 1));
    expect(s.batches).toEqual([[1], [2]]);
    s.release();
    await flush();
    expect(s.batches).toEqual([[1], [2], [3, 4, 5]]);
    await s.releaseAll();
    expect(s.batches).toEqual([[1], [2], [3, 4, 5], [6, 7, 8], [9]]);
    await expect(Promise.all(answers)).resolves.toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18]);
  });

  it("sends a failed batch's requests again one by one, so only the bad one fails", async () => {
    const s = gatedRun((i) => i === 3);
    const c = new Coalescer(s.run, { maxInFlight: 1, maxBatch: 64 });
    const answers = [1, 2, 3, 4].map((i) => c.submit(i).catch((err: Error) => err.message));
    await s.releaseAll();
    expect(s.batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
    await expect(Promise.all(answers)).resolves.toEqual([2, 4, "refused 3", 8]);
  });

  it("answers a request that went alone with its own error", async () => {
    const s = gatedRun(() => true);
    const c = new Coalescer(s.run, { maxInFlight: 1, maxBatch: 64 });
    const one = c.submit(5);
    s.release();
    await expect(one).rejects.toThrow("refused 5");
    expect(s.batches).toEqual([[5]]);
  });

  it("refuses a batch whose statement answered a different number of results, and retries it row by row", async () => {
    let calls = 0;
    const c = new Coalescer(async (items: number[]) => (++calls === 2 ? items.slice(1) : items), { maxInFlight: 1, maxBatch: 64 });
    const answers = [1, 2, 3].map((i) => c.submit(i));
    await expect(Promise.all(answers)).resolves.toEqual([1, 2, 3]);
    expect(calls).toBe(4);
  });
});
